package rules

// Source-edit helpers shared by the rules' fixes: lines, indentation and
// newline style, free names, `import anyio`, appending an argument to a call,
// and inserting a checkpoint after a statement.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// stmtIndent returns the whitespace before n on its line, and whether n is the
// first thing on its line.
func stmtIndent(m *pyast.Module, n *pyast.Node) (string, bool) {
	start := int(n.StartByte())
	ls := srcLineStart(m.Src, start)
	pre := string(m.Src[ls:start])
	if strings.TrimLeft(pre, " \t") != "" {
		return "", false
	}
	return pre, true
}

// srcLineStart returns the offset of the start of the line holding off.
func srcLineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// srcLineEnd returns the offset of the line break that ends the line holding
// off (the \r of a \r\n), or len(src).
func srcLineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) && off > 0 && src[off-1] == '\r' {
		off--
	}
	return off
}

// srcNewline returns the file's line ending: "\r\n" when its first line ends so.
func srcNewline(src []byte) string {
	for i, b := range src {
		if b == '\n' {
			if i > 0 && src[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

// lineNewline returns the line ending at eol (as found by srcLineEnd), ""
// at the end of the file.
func lineNewline(src []byte, eol int) string {
	switch {
	case eol < len(src) && src[eol] == '\r':
		return "\r\n"
	case eol < len(src):
		return "\n"
	}
	return ""
}

// freeName returns name, or name with a number, unbound where f's body runs.
func freeName(m *pyast.Module, f *pyast.Function, name string) string {
	for i := 2; ; i++ {
		if len(f.Scope.Lookup(name)) == 0 && !strings.Contains(m.Text(f.Body), name) {
			return name
		}
		name = fmt.Sprintf("%s%d", strings.TrimRight(name, "0123456789"), i)
	}
}

// anyioImport returns the edit that adds `import anyio` to m when the name
// anyio is unbound where code of scope s runs (need), and ok=false when anyio
// is bound to something else. The import goes before the first statement
// that is not a comment, the module docstring or a __future__ import.
func anyioImport(m *pyast.Module, s *pyast.Scope) (e Edit, need, ok bool) {
	if bs := s.Lookup("anyio"); len(bs) > 0 {
		for _, b := range bs {
			if !importsAnyio(b) {
				return Edit{}, false, false
			}
		}
		return Edit{}, false, true
	}
	at := len(m.Src)
	stmts := pyast.NamedChildren(m.Root)
	for i, st := range stmts {
		switch {
		case st.Kind() == "comment":
			continue
		case i == firstCode(stmts) && st.Kind() == "expression_statement" && st.NamedChildCount() == 1 && st.NamedChild(0).Kind() == "string":
			continue // module docstring
		case st.Kind() == "future_import_statement":
			continue
		}
		at = srcLineStart(m.Src, int(st.StartByte()))
		break
	}
	nl := srcNewline(m.Src)
	text := "import anyio" + nl
	if at == len(m.Src) && at > 0 && m.Src[at-1] != '\n' {
		text = nl + "import anyio" + nl
	}
	return Edit{Path: m.Path, Start: at, End: at, New: text}, true, true
}

// importsAnyio reports whether binding b is an import of the anyio module.
func importsAnyio(b *pyast.Binding) bool {
	return b.Kind == pyast.BindImport && len(b.Targets) == 1 && b.Targets[0] == "anyio"
}

// firstCode returns the index of the first non-comment statement.
func firstCode(stmts []*pyast.Node) int {
	for i, s := range stmts {
		if s.Kind() != "comment" {
			return i
		}
	}
	return -1
}

// anyioName returns the name that refers to the anyio module where s runs:
// anyio, or an alias (import anyio as aio), adding `import anyio` when none
// does (imp). ok is false when the name anyio is bound to something else.
func anyioName(m *pyast.Module, s *pyast.Node) (name string, imp *Edit, ok bool) {
	sc := m.ScopeAt(s)
	isAnyio := func(n string) bool {
		bs := sc.Lookup(n)
		for _, b := range bs {
			if !importsAnyio(b) {
				return false
			}
		}
		return len(bs) > 0
	}
	if isAnyio("anyio") {
		return "anyio", nil, true
	}
	for x := sc; x != nil; x = x.Parent {
		names := x.Names()
		sort.Strings(names)
		for _, n := range names {
			if n != "anyio" && isAnyio(n) {
				return n, nil, true
			}
		}
	}
	e, need, ok := anyioImport(m, sc)
	if !ok {
		return "", nil, false
	}
	if need {
		return "anyio", &e, true
	}
	return "anyio", nil, true
}

// checkpointAfter returns the edits that put
// `await anyio.lowlevel.checkpoint_if_cancelled()` on a new line after
// statement s, at s's indentation and followed by the lines of then (at the
// same indentation), and the name of anyio they use: anyio, or an alias of
// it, with `import anyio` added where no name binds it. ok is false when s
// does not start its line, when code follows s on its last line
// (`x = await f(); y()`, a trailing backslash), or when the name anyio is
// bound to something else. The import edit, when there is one, comes first.
func checkpointAfter(m *pyast.Module, s *pyast.Node, then ...string) (edits []Edit, anyio string, ok bool) {
	indent, first := stmtIndent(m, s)
	if !first {
		return nil, "", false
	}
	end := int(s.EndByte())
	eol := srcLineEnd(m.Src, end)
	end = min(end, eol) // a comment ending a block holds the \r of its \r\n
	if rest := strings.TrimSpace(string(m.Src[end:eol])); rest != "" && !strings.HasPrefix(rest, "#") {
		return nil, "", false
	}
	anyio, imp, ok := anyioName(m, s)
	if !ok {
		return nil, "", false
	}
	nl := lineNewline(m.Src, eol)
	at := eol + len(nl)
	lead := ""
	if eol == len(m.Src) { // no newline at the end of the file: add one
		at, lead = eol, srcNewline(m.Src)
		nl = lead
	}
	text := lead + indent + "await " + anyio + ".lowlevel.checkpoint_if_cancelled()" + nl
	for _, line := range then {
		text += indent + line + nl
	}
	if imp != nil {
		edits = append(edits, *imp)
	}
	return append(edits, Edit{Path: m.Path, Start: at, End: at, New: text}), anyio, true
}

// checkpointBefore returns the edits that put
// `await anyio.lowlevel.checkpoint_if_cancelled()` on a new line before
// statement s, at its indentation (see checkpointAfter for the name of anyio
// and the import). ok is false when s does not start its line or anyio is
// bound to something else.
func checkpointBefore(m *pyast.Module, s *pyast.Node) (edits []Edit, anyio string, ok bool) {
	indent, first := stmtIndent(m, s)
	if !first {
		return nil, "", false
	}
	anyio, imp, ok := anyioName(m, s)
	if !ok {
		return nil, "", false
	}
	at := srcLineStart(m.Src, int(s.StartByte()))
	nl := lineNewline(m.Src, srcLineEnd(m.Src, at))
	if nl == "" {
		nl = srcNewline(m.Src)
	}
	if imp != nil {
		edits = append(edits, *imp)
	}
	text := indent + "await " + anyio + ".lowlevel.checkpoint_if_cancelled()" + nl
	return append(edits, Edit{Path: m.Path, Start: at, End: at, New: text}), anyio, true
}

// appendArg returns the edit that adds the argument text arg at the end of
// the argument list args: ", arg" after the last argument, or arg inside
// empty parentheses. last is that last argument (comments left out), or nil.
func appendArg(m *pyast.Module, args *pyast.Node, arg string) (e Edit, last *pyast.Node) {
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() != "comment" {
			last = a
		}
	}
	if last == nil {
		at := int(args.StartByte()) + 1
		return Edit{Path: m.Path, Start: at, End: at, New: arg}, nil
	}
	at := int(last.EndByte())
	return Edit{Path: m.Path, Start: at, End: at, New: ", " + arg}, last
}
