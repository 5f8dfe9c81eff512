package pystyle

import (
	"bytes"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Lines end as CPython ends them: at "\r\n", "\n" or a lone "\r" (old Mac
// style). Every fix finds lines with these helpers, so that a fix in a file
// of any of the three styles inserts whole lines in the file's own style.

// LineIndent returns the whitespace before n on its line, and whether n is
// the first thing on it.
func LineIndent(m *pyast.Module, n *pyast.Node) (string, bool) {
	start := int(n.StartByte())
	ls := LineStart(m.Src, start)
	pre := string(m.Src[ls:start])
	if strings.TrimLeft(pre, " \t") != "" {
		return "", false
	}
	return pre, true
}

// LineStart returns the start of the line holding off, never before a
// UTF-8 byte order mark: text inserted at the start of the first line goes
// after it (CPython accepts the BOM only at byte 0).
func LineStart(src []byte, off int) int {
	for off > 0 && !lineStarts(src, off) {
		off--
	}
	if off == 0 && len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return 3
	}
	return off
}

// lineStarts reports whether a line starts at off: the start of the file,
// or just after a line break (not between the "\r" and "\n" of a CRLF).
func lineStarts(src []byte, off int) bool {
	if off == 0 {
		return true
	}
	switch src[off-1] {
	case '\n':
		return true
	case '\r':
		return off == len(src) || src[off] != '\n'
	}
	return false
}

// LineEnd returns the offset of the line break that ends the line holding
// off (the "\r" of a "\r\n", also when off is between the two), or
// len(src) on the last line when it has none.
func LineEnd(src []byte, off int) int {
	i := bytes.IndexAny(src[off:], "\r\n")
	if i < 0 {
		return len(src)
	}
	if e := off + i; src[e] == '\n' && e > 0 && src[e-1] == '\r' {
		return e - 1 // a comment node holds the "\r" of its "\r\n"
	}
	return off + i
}

// BreakAt returns the line break at eol (as LineEnd finds it): "\n",
// "\r\n" or "\r"; "" at the end of the file.
func BreakAt(src []byte, eol int) string {
	switch {
	case eol >= len(src):
		return ""
	case src[eol] == '\r' && eol+1 < len(src) && src[eol+1] == '\n':
		return "\r\n"
	}
	return string(src[eol : eol+1])
}

// lineAfter returns the offset after the line break that ends n's last line
// (len(src) at the end of the file).
func lineAfter(src []byte, n *pyast.Node) int {
	eol := LineEnd(src, int(n.EndByte()))
	return eol + len(BreakAt(src, eol))
}

// Newline returns the file's line ending, as its first line ends: "\n",
// "\r\n" or "\r"; "\n" for a file of one line.
func Newline(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	if i < 0 {
		return "\n"
	}
	return BreakAt(src, i)
}
