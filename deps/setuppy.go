package deps

import (
	"errors"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// setup.py, read from its syntax tree and never executed: the
// install_requires=[...] and extras_require={...} keywords of a setup(...)
// call, as list and dict literals of plain strings, directly or through a
// module-level NAME = [...] assignment. Other values (comprehensions, calls
// such as open("requirements.txt").read().splitlines(), concatenations,
// f-strings) are skipped.

func readSetupPy(l *loader, f *File) []*Requirement {
	lim := pyast.DefaultLimits
	if l.opts.ParseLimits != nil {
		lim = *l.opts.ParseLimits
	}
	m, err := pyast.ParseLimits(f.Path, "setup", f.Src, lim)
	if err != nil {
		off := 0
		var tc *pyast.TooComplexError
		if errors.As(err, &tc) {
			off = min(tc.Offset, len(f.Src)) // where the parser gave up
		}
		l.errorf(f, off, "%v", err)
		return nil
	}
	// module-level NAME = [...] / {...} assignments, for keyword values
	// given by name
	assigned := map[string]*pyast.Node{}
	for _, st := range pyast.NamedChildren(m.Root) {
		if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 {
			continue
		}
		a := st.NamedChild(0)
		if a.Kind() != "assignment" {
			continue
		}
		if left := a.ChildByFieldName("left"); left != nil && left.Kind() == "identifier" {
			assigned[m.Text(left)] = a.ChildByFieldName("right")
		}
	}
	value := func(n *pyast.Node) *pyast.Node {
		n = pyast.Unparen(n)
		if n != nil && n.Kind() == "identifier" {
			return pyast.Unparen(assigned[m.Text(n)])
		}
		return n
	}
	var reqs []*Requirement
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if n.Kind() != "call" || !isSetupCall(m, n) {
			return true
		}
		_, kw := m.Args(n)
		if n := kw["install_requires"]; n != nil {
			if v := value(n); v != nil {
				reqs = append(reqs, pyStrings(l, f, m, v, "install_requires", "")...)
			} else {
				l.note(f, int(n.StartByte()), "install_requires: %s is not a module-level literal: skipped", escape.Excerpt(m.Text(n)))
			}
		}
		if v := value(kw["extras_require"]); v != nil && v.Kind() == "dictionary" {
			for _, pair := range pyast.NamedChildren(v) {
				if pair.Kind() != "pair" {
					continue
				}
				k, ok := pyString(m, pair.ChildByFieldName("key"))
				if !ok {
					continue
				}
				reqs = append(reqs, pyStrings(l, f, m, value(pair.ChildByFieldName("value")), "extras_require."+k, k)...)
			}
		}
		return true
	})
	return reqs
}

// isSetupCall reports whether call is setup(...) from setuptools or
// distutils (or a bare setup of unknown origin).
func isSetupCall(m *pyast.Module, call *pyast.Node) bool {
	fn := pyast.Callee(call)
	if fn == nil {
		return false
	}
	for _, q := range m.Resolve(fn) {
		if q == "setuptools.setup" || q == "distutils.core.setup" || q == "setup" {
			return true
		}
	}
	t := m.Text(fn)
	return t == "setup" || strings.HasSuffix(t, ".setup")
}

// pyStrings reads a list or tuple literal of requirement strings.
func pyStrings(l *loader, f *File, m *pyast.Module, n *pyast.Node, section, group string) []*Requirement {
	if n == nil || n.Kind() != "list" && n.Kind() != "tuple" {
		if n != nil {
			l.note(f, int(n.StartByte()), "%s: not a literal list: skipped", section)
		}
		return nil
	}
	var out []*Requirement
	for _, e := range pyast.NamedChildren(n) {
		s, ok := pyString(m, e)
		if !ok {
			l.note(f, int(e.StartByte()), "%s: %s is not a plain string literal: skipped", section, escape.Excerpt(m.Text(e)))
			continue
		}
		start := contentStart(e)
		r, err := newRequirement(f.Path, s, func(i int) int { return start + i })
		if err != nil {
			l.errorf(f, int(e.StartByte()), "invalid requirement: %v", err)
			continue
		}
		if start < 0 {
			r.Start, r.End, r.VersionStart, r.VersionEnd = int(e.StartByte()), int(e.EndByte()), -1, -1
		}
		if !l.keep(r) {
			continue
		}
		r.Section, r.Group = section, group
		out = append(out, r)
	}
	return out
}

// pyString returns the value of a plain string literal (no prefix other
// than r/u, no interpolation, no escapes).
func pyString(m *pyast.Module, n *pyast.Node) (string, bool) {
	if n == nil || n.Kind() != "string" {
		return "", false
	}
	var content strings.Builder
	for _, c := range pyast.Children(n) {
		switch c.Kind() {
		case "string_start":
			p := strings.ToLower(strings.TrimRight(m.Text(c), `"'`))
			if p != "" && p != "r" && p != "u" {
				return "", false // f-strings and bytes
			}
		case "string_content":
			if c.NamedChildCount() > 0 { // escape sequences
				return "", false
			}
			content.WriteString(m.Text(c))
		case "string_end":
		default:
			return "", false
		}
	}
	return content.String(), true
}

// contentStart is the offset of a plain string's contents.
func contentStart(n *pyast.Node) int {
	for _, c := range pyast.Children(n) {
		if c.Kind() == "string_start" {
			return int(c.EndByte())
		}
	}
	return -1
}
