package pyast

import "bytes"

// bomRune is U+FEFF in UTF-8, the byte order mark.
var bomRune = []byte("\uFEFF")

// StrayBOM returns the offset of the first U+FEFF that CPython rejects, or
// -1. CPython accepts the character only at byte 0 (the byte order mark) and
// inside string literals and comments; anywhere else it stops with "invalid
// non-printable character U+FEFF". tree-sitter reads it as whitespace, so a
// file that gained a BOM in the middle (an edit inserted before the file's
// own BOM) parses here but not in Python.
func (m *Module) StrayBOM() int {
	for from := 1; from < len(m.Src); {
		i := bytes.Index(m.Src[from:], bomRune)
		if i < 0 {
			return -1
		}
		off := from + i
		if !m.inLiteralOrComment(off) {
			return off
		}
		from = off + len(bomRune)
	}
	return -1
}

// inLiteralOrComment reports whether the byte at off is inside a comment or
// the literal text of a string (not inside an f-string's {expression}).
func (m *Module) inLiteralOrComment(off int) bool {
	n := m.Root.DescendantForByteRange(uint(off), uint(off+len(bomRune)))
	for ; n != nil; n = n.Parent() {
		switch n.Kind() {
		case "comment", "string_content", "string":
			return true
		case "interpolation", "module":
			return false
		}
	}
	return false
}
