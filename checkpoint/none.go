package checkpoint

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// A method awaited on a value that may be None raises AttributeError before
// anything yields: `self.browser: Optional[Browser] = None` then `await
// self.browser.close()` while no browser was started. Such an await is no
// certain checkpoint (and no try body's first checkpoint, startsCP) unless
// it sits under a test of that same name or self attribute: `if x is not
// None:`, `if x:` (or such a test and-ed with others).

// noneReceiver reports whether call is a method call on a name or self
// attribute that may be None (mayBeNone) where no enclosing if narrows it.
func noneReceiver(m *pyast.Module, call *pyast.Node) bool {
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil || callee.Kind() != "attribute" {
		return false
	}
	obj := pyast.Unparen(callee.ChildByFieldName("object"))
	if obj == nil || (obj.Kind() != "identifier" && obj.Kind() != "attribute") {
		return false
	}
	return mayBeNone(m, obj) && !narrowed(m, call, m.Text(obj))
}

// mayBeNone reports whether some binding of e (a name, or an attribute of
// self) is annotated Optional[...], X | None or Union[..., None], or binds
// None (an assignment, or a parameter's default).
func mayBeNone(m *pyast.Module, e *pyast.Node) bool {
	for _, b := range m.BindingsOf(e) {
		n := b.Node
		if n == nil {
			continue
		}
		switch n.Kind() {
		case "assignment", "typed_parameter", "typed_default_parameter":
			if optionalAnnotation(m, n.ChildByFieldName("type")) {
				return true
			}
		}
		switch n.Kind() {
		case "assignment":
			if v := b.Value(); v != nil && v.Kind() == "none" {
				return true
			}
		case "default_parameter", "typed_default_parameter":
			if v := pyast.Unparen(n.ChildByFieldName("value")); v != nil && v.Kind() == "none" {
				return true
			}
		}
	}
	return false
}

// optionalAnnotation reports whether annotation t admits None: it mentions
// None or Optional.
func optionalAnnotation(m *pyast.Module, t *pyast.Node) bool {
	found := false
	pyast.Walk(t, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "none":
			found = true
		case "identifier":
			if m.Text(n) == "Optional" {
				found = true
			}
		case "string":
			found = found || optionalText(m.Text(n))
		}
		return !found
	})
	return found
}

// optionalText: a string annotation ("Optional[Browser]", "Browser | None").
func optionalText(s string) bool {
	return containsWord(s, "None") || containsWord(s, "Optional")
}

func containsWord(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] != w {
			continue
		}
		before := i == 0 || !isIdentByte(s[i-1])
		after := i+len(w) == len(s) || !isIdentByte(s[i+len(w)])
		if before && after {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// narrowed reports whether n lies, inside its function, in the body of an
// if or elif whose condition tests recv (by its text) for not None or for
// truth, alone or and-ed with other tests; or after a statement of its
// block that makes the rest run only then: `assert recv is not None`, or
// `if recv is None: raise ...` (also `if not recv:`, with return, break or
// continue), as a type checker narrows.
func narrowed(m *pyast.Module, n *pyast.Node, recv string) bool {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		if pyast.IsFunctionBoundary(p) {
			return false
		}
		switch p.Kind() {
		case "if_statement", "elif_clause":
			if body := p.ChildByFieldName("consequence"); body != nil && body.Equals(c) && testsNotNone(m, p.ChildByFieldName("condition"), recv) {
				return true
			}
		case "block", "module":
			for i := uint(0); i < p.NamedChildCount(); i++ {
				s := p.NamedChild(i)
				if s.StartByte() >= c.StartByte() {
					break
				}
				if guardsNotNone(m, s, recv) {
					return true
				}
			}
		}
	}
	return false
}

// guardsNotNone reports whether statement s lets the statements after it
// run only when recv is not None: an assert of such a test, or an if with
// no elif or else whose condition is true when recv is None (`recv is
// None`, `not recv`, or an or of tests one of which is) and whose body
// ends by leaving the block (raise, return, break, continue).
func guardsNotNone(m *pyast.Module, s *pyast.Node, recv string) bool {
	switch s.Kind() {
	case "assert_statement":
		return s.NamedChildCount() > 0 && testsNotNone(m, s.NamedChild(0), recv)
	case "if_statement":
		if s.ChildByFieldName("alternative") != nil {
			return false
		}
		body := s.ChildByFieldName("consequence")
		if body == nil || body.NamedChildCount() == 0 || !testsNone(m, s.ChildByFieldName("condition"), recv) {
			return false
		}
		switch body.NamedChild(body.NamedChildCount() - 1).Kind() {
		case "raise_statement", "return_statement", "break_statement", "continue_statement":
			return true
		}
	}
	return false
}

// testsNone reports whether condition e is true whenever recv is None:
// `recv is None`, `not recv`, `not (a test of testsNotNone)`, or an or of
// tests one of which is.
func testsNone(m *pyast.Module, e *pyast.Node, recv string) bool {
	e = pyast.Unparen(e)
	if e == nil {
		return false
	}
	switch e.Kind() {
	case "not_operator":
		return testsNotNone(m, e.ChildByFieldName("argument"), recv)
	case "boolean_operator":
		if op := e.ChildByFieldName("operator"); op == nil || m.Text(op) != "or" {
			return false
		}
		return testsNone(m, e.ChildByFieldName("left"), recv) || testsNone(m, e.ChildByFieldName("right"), recv)
	case "comparison_operator":
		return noneComparison(m, e, recv) == "is"
	}
	return false
}

// testsNotNone reports whether condition e is true only when recv is not
// None: `recv`, `recv is not None`, or an and of tests one of which is.
func testsNotNone(m *pyast.Module, e *pyast.Node, recv string) bool {
	e = pyast.Unparen(e)
	if e == nil {
		return false
	}
	switch e.Kind() {
	case "identifier", "attribute":
		return m.Text(e) == recv
	case "boolean_operator":
		if op := e.ChildByFieldName("operator"); op == nil || m.Text(op) != "and" {
			return false
		}
		return testsNotNone(m, e.ChildByFieldName("left"), recv) || testsNotNone(m, e.ChildByFieldName("right"), recv)
	case "comparison_operator":
		return noneComparison(m, e, recv) == "is not"
	}
	return false
}

// noneComparison returns the operator of comparison e when it compares
// recv (by its text) with None (`recv is None`: "is"), or "".
func noneComparison(m *pyast.Module, e *pyast.Node, recv string) string {
	parts := pyast.NamedChildren(e)
	if len(parts) != 2 {
		return ""
	}
	l, r := pyast.Unparen(parts[0]), pyast.Unparen(parts[1])
	if l == nil || r == nil || m.Text(l) != recv || r.Kind() != "none" {
		return ""
	}
	return normSpace(m.Text(e)[l.EndByte()-e.StartByte() : r.StartByte()-e.StartByte()])
}

// normSpace collapses runs of white space (and line continuations) to one
// space and trims.
func normSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\\", " ")), " ")
}
