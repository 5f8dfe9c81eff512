package pyast

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// SyntaxError is one place where CPython would refuse to compile the file.
type SyntaxError struct {
	Offset int    // byte offset in Src
	Msg    string // what to report
}

// SyntaxErrors returns the file's syntax errors in source order: what
// CPython refuses that mcplint sees. Empty when the file compiles with some
// Python 3 (the conformance test, conformance_test.go, checks it against
// every Python on the machine). They are
//   - the first error tree-sitter recovered from (its ERROR or MISSING node);
//   - Python 2 syntax tree-sitter-python accepts and no Python 3 does
//     (grammarErrors): print and exec statements, "<>", 0777 and 12L literals,
//     ur"" strings;
//   - a misplaced or unknown "from __future__ import" (futureErrors);
//   - a byte order mark where CPython refuses one (StrayBOM);
//   - the encoding (encodingError): bytes that are not UTF-8 in a file that
//     declares no other encoding (PEP 263), an encoding declaration CPython
//     does not know, a declaration other than UTF-8 after a BOM.
func (m *Module) SyntaxErrors() []SyntaxError {
	var out []SyntaxError
	if e, ok := m.encodingError(); ok {
		out = append(out, e)
	}
	if m.Root.HasError() {
		if n := m.FirstError(); n != nil {
			out = append(out, SyntaxError{int(n.StartByte()), "syntax error: analysed as far as it parses"})
		}
	}
	out = append(out, m.grammarErrors()...)
	if off := m.StrayBOM(); off >= 0 {
		out = append(out, SyntaxError{off, "syntax error: invalid non-printable character U+FEFF (a byte order mark is allowed only at the start of the file); analysed as if it were a space"})
	}
	sortSyntaxErrors(out)
	return out
}

func sortSyntaxErrors(s []SyntaxError) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Offset < s[j-1].Offset; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// grammarKinds are the node kinds grammarErrors looks at.
var grammarKinds = newKindSet("print_statement", "exec_statement", "comparison_operator", "integer", "string_start", "future_import_statement", "except_clause", "concatenated_string")

// grammarErrors returns the syntax errors of a tree tree-sitter accepted:
// Python 2 constructs that tree-sitter-python parses and that are syntax
// errors in every Python 3, and misplaced or unknown future imports. One
// pass over the node array.
func (m *Module) grammarErrors() []SyntaxError {
	var out []SyntaxError
	add := func(n *Node, msg string) {
		out = append(out, SyntaxError{int(n.StartByte()), "syntax error: " + msg})
	}
	for i := range m.tree {
		n := &m.tree[i]
		if !grammarKinds.has(n.symbol) {
			continue
		}
		switch n.Kind() {
		case "print_statement":
			// `print >>f, x` is also Python 3: a tuple whose first item
			// shifts the function print. Every other form is not.
			if c := n.NamedChild(0); c == nil || c.Kind() != "chevron" {
				add(n, "a print statement (Python 2); Python 3 calls print(...)")
			}
		case "exec_statement":
			add(n, "an exec statement (Python 2); Python 3 calls exec(...)")
		case "comparison_operator":
			for c := n.firstChild(); c != nil; c = n.nextChild(c) {
				if !c.IsNamed() && c.Kind() == "<>" {
					add(c, `the operator "<>" (Python 2); Python 3 writes "!="`)
				}
			}
		case "except_clause":
			// PEP 758 (3.14) drops the parentheses of `except (A, B):`,
			// not with "as" (groupExceptTypes grouped the others).
			values := 0
			for c := n.firstChild(); c != nil; c = n.nextChild(c) {
				if c.fieldOf() == fs.fValue {
					values++
				}
			}
			if values > 1 {
				add(n, "multiple exception types must be parenthesized when using 'as'")
			}
		case "concatenated_string":
			// PEP 750: a t-string concatenates only with t-strings.
			t, strs := 0, 0
			for c := n.firstChild(); c != nil; c = n.nextChild(c) {
				if c.Kind() == "string" {
					strs++
					if isTString(m.TextView(c)) {
						t++
					}
				}
			}
			if t > 0 && t < strs {
				add(n, "cannot mix t-string literals with string or bytes literals")
			}
		case "integer":
			t := m.TextView(n)
			switch {
			case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") || strings.HasPrefix(t, "0o") || strings.HasPrefix(t, "0O") || strings.HasPrefix(t, "0b") || strings.HasPrefix(t, "0B"):
				if strings.HasSuffix(t, "l") || strings.HasSuffix(t, "L") {
					add(n, "a long integer literal "+t+" (Python 2)")
				}
			case strings.HasSuffix(t, "l") || strings.HasSuffix(t, "L"):
				add(n, "a long integer literal "+t+" (Python 2)")
			case len(t) > 1 && t[0] == '0' && strings.Trim(t, "0_") != "" && !strings.ContainsAny(t, "jJ"):
				add(n, "leading zeros in a decimal integer literal "+t+" (a Python 2 octal literal); Python 3 writes 0o")
			}
		case "string_start":
			switch p := strings.ToLower(strings.TrimRight(m.TextView(n), `"'`)); p {
			case "", "r", "u", "b", "br", "rb", "f", "fr", "rf", "t", "tr", "rt":
			default:
				add(n, "the string prefix "+p+" (Python 3 has no such prefix)")
			}
		case "future_import_statement":
			out = append(out, m.futureErrors(n)...)
		}
	}
	return out
}

// futureFeatures are the names "from __future__ import" takes (CPython's
// Lib/__future__.py, all_feature_names).
var futureFeatures = map[string]bool{
	"nested_scopes": true, "generators": true, "division": true, "absolute_import": true,
	"with_statement": true, "print_function": true, "unicode_literals": true,
	"barry_as_FLUFL": true, "generator_stop": true, "annotations": true,
}

// futureErrors returns what CPython refuses in the future import n: that
// it is not at the beginning of the module (only a docstring, comments and
// other future imports may come before it), an unknown feature.
func (m *Module) futureErrors(n *Node) []SyntaxError {
	var out []SyntaxError
	{
		if !m.futureAtStart(n) {
			return []SyntaxError{{int(n.StartByte()), "syntax error: from __future__ imports must occur at the beginning of the file"}}
		}
		for c := n.firstChild(); c != nil; c = n.nextChild(c) {
			name := c
			if c.Kind() == "aliased_import" {
				name = c.ChildByFieldName("name")
			}
			if name == nil || name.Kind() != "dotted_name" {
				continue
			}
			switch f := m.TextView(name); {
			case f == "braces":
				out = append(out, SyntaxError{int(name.StartByte()), "syntax error: not a chance (from __future__ import braces)"})
			case !futureFeatures[f]:
				out = append(out, SyntaxError{int(name.StartByte()), "syntax error: future feature " + f + " is not defined"})
			}
		}
	}
	return out
}

// futureAtStart reports whether the future import n is a statement of the
// module that only a docstring, comments and future imports precede.
func (m *Module) futureAtStart(n *Node) bool {
	if n.Parent() != m.Root {
		return false
	}
	first := true
	for c := m.Root.firstChild(); c != nil && c != n; c = m.Root.nextChild(c) {
		switch c.Kind() {
		case "comment", "line_continuation":
			continue
		case "future_import_statement":
			first = false
			continue
		case "expression_statement":
			if first && c.NamedChildCount() == 1 {
				if s := c.NamedChild(0); s.Kind() == "concatenated_string" || s.Kind() == "string" && !isFString(m.TextView(s)) {
					first = false
					continue
				}
			}
		}
		return false
	}
	return true
}

// isTString reports whether string literal s is a template string.
func isTString(s string) bool {
	for i := 0; i < len(s) && i < 3; i++ {
		switch s[i] {
		case 't', 'T':
			return true
		case '"', '\'':
			return false
		}
	}
	return false
}

func isFString(s string) bool {
	for i := 0; i < len(s) && i < 3; i++ {
		switch s[i] {
		case 'f', 'F', 't', 'T':
			return true
		case '"', '\'':
			return false
		}
	}
	return false
}

// codingRE is PEP 263's encoding declaration.
var codingRE = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// declaredEncoding returns the encoding a PEP 263 declaration on the first
// two lines names, with the offset of the name; "" when there is none.
func declaredEncoding(src []byte) (string, int) {
	off := 0
	for line := 0; line < 2 && off < len(src); line++ {
		end := bytes.IndexAny(src[off:], "\r\n")
		if end < 0 {
			end = len(src) - off
		}
		l := src[off : off+end]
		if line == 0 {
			l = bytes.TrimPrefix(l, utf8BOM)
		}
		if s := codingRE.FindSubmatchIndex(l); s != nil {
			return string(l[s[2]:s[3]]), off + (end - len(l)) + s[2]
		}
		// Only a comment or blank first line lets the second declare it.
		if t := bytes.TrimLeft(l, " \t\f"); len(t) > 0 && t[0] != '#' {
			break
		}
		off += end
		if off < len(src) && src[off] == '\r' {
			off++
		}
		if off < len(src) && src[off] == '\n' {
			off++
		}
	}
	return "", 0
}

// normalEncoding returns the name CPython's tokenizer reads a declared
// encoding as (get_normal_name: utf-8 and latin-1 spellings), lowercased.
func normalEncoding(name string) string {
	e := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	switch {
	case e == "utf-8" || strings.HasPrefix(e, "utf-8-"):
		return "utf-8"
	case e == "latin-1" || e == "iso-8859-1" || e == "iso-latin-1" ||
		strings.HasPrefix(e, "latin-1-") || strings.HasPrefix(e, "iso-8859-1-") || strings.HasPrefix(e, "iso-latin-1-"):
		return "iso-8859-1"
	}
	return e
}

// knownEncoding reports whether CPython has a codec of that name
// (pythonCodecs), looked up as codecs.lookup does: lowercased, each run of
// characters other than letters, digits and "." one "_", then with "." as
// "_" too.
func knownEncoding(name string) bool {
	if normalEncoding(name) != strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
		return true // a spelling of utf-8 or latin-1 (get_normal_name)
	}
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		} else {
			under = true
		}
	}
	key := b.String()
	return pythonCodecs[key] || pythonCodecs[strings.ReplaceAll(key, ".", "_")]
}

// encodingError returns the file's encoding error (see SyntaxErrors).
func (m *Module) encodingError() (SyntaxError, bool) {
	name, at := declaredEncoding(m.Src)
	if name != "" {
		norm := normalEncoding(name)
		// After a BOM, CPython takes only a spelling of utf-8 (not even
		// "utf8": its tokenizer compares the normalized name).
		if bytes.HasPrefix(m.Src, utf8BOM) && norm != "utf-8" {
			return SyntaxError{at, "syntax error: encoding problem: " + name + " with a UTF-8 byte order mark"}, true
		}
		if !knownEncoding(name) {
			return SyntaxError{at, "syntax error: unknown encoding: " + name}, true
		}
		if norm != "utf-8" && norm != "utf8" {
			return SyntaxError{}, false // CPython decodes it; mcplint reads its bytes as they are
		}
	}
	if utf8.Valid(m.Src) {
		return SyntaxError{}, false
	}
	off := 0
	for off < len(m.Src) {
		r, size := utf8.DecodeRune(m.Src[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		off += size
	}
	return SyntaxError{off, "file is not valid UTF-8; analysed as far as it parses"}, true
}
