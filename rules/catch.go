package rules

// Catching the request's cancellation: the parts of an except clause, the
// exception types that match the cancellation, and whether an except body
// re-raises it. MCP104 reports the catches; MCP102 leaves shields in
// re-raising except blocks alone.

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// exceptBody returns the body block of an except clause.
func exceptBody(c *pyast.Node) *pyast.Node {
	for _, k := range pyast.NamedChildren(c) {
		if k.Kind() == "block" {
			return k
		}
	}
	return nil
}

// exceptTarget splits an except clause's value into the type expression and
// the bound name ("" when none). A bare except has neither.
func exceptTarget(m *pyast.Module, c *pyast.Node) (typ *pyast.Node, name string) {
	v := c.ChildByFieldName("value")
	if v == nil {
		return nil, ""
	}
	if v.Kind() == "as_pattern" {
		if a := v.ChildByFieldName("alias"); a != nil {
			name = strings.TrimSpace(m.Text(a))
		}
		v = v.NamedChild(0)
	}
	// "except E, name" (Python 2 form) parses as a tuple: keep it as a tuple.
	return pyast.Unparen(v), name
}

// cancelClasses are the exception classes a cancelled task raises, or a base
// of them, by qualified name.
var cancelClasses = map[string]bool{
	"asyncio.CancelledError":            true,
	"asyncio.exceptions.CancelledError": true,
	"trio.Cancelled":                    true,
	"BaseException":                     true,
	"builtins.BaseException":            true,
}

// cancellationType reports whether the exception type expression e can match
// the cancellation, and names the matching part.
func cancellationType(m *pyast.Module, e *pyast.Node) (string, bool) {
	e = pyast.Unparen(e)
	if e == nil {
		return "", false
	}
	switch e.Kind() {
	case "tuple", "list":
		for _, el := range pyast.NamedChildren(e) {
			if what, ok := cancellationType(m, el); ok {
				return what, true
			}
		}
		return "", false
	case "call":
		if nameIs(m, pyast.Callee(e), "anyio.get_cancelled_exc_class") {
			return m.Text(e), true
		}
		return "", false
	case "identifier", "attribute":
		for _, q := range m.Resolve(e) {
			if cancelClasses[q] {
				return m.Text(e), true
			}
		}
		if e.Kind() == "identifier" {
			// exc = anyio.get_cancelled_exc_class(); except exc: ...
			for _, b := range m.ScopeAt(e).Lookup(m.Text(e)) {
				if v := pyast.Unparen(b.Value); v != nil && v.Kind() == "call" && v.Id() != e.Id() {
					if what, ok := cancellationType(m, v); ok {
						return m.Text(e) + " (" + what + ")", true
					}
				}
			}
		}
	}
	return "", false
}

// reraisesCancel reports whether an except body re-raises what it caught: a
// bare raise, a raise of the bound name, or a raise of a cancellation class
// other than BaseException itself.
func reraisesCancel(m *pyast.Module, clause, blk *pyast.Node) bool {
	_, name := exceptTarget(m, clause)
	found := false
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		if found || n.Kind() != "raise_statement" {
			return !found
		}
		if n.NamedChildCount() == 0 || n.NamedChild(0).Kind() == "comment" {
			found = true
			return false
		}
		e := pyast.Unparen(n.NamedChild(0))
		if name != "" && e.Kind() == "identifier" && m.Text(e) == name {
			found = true
			return false
		}
		if e.Kind() == "call" && !nameIs(m, pyast.Callee(e), "anyio.get_cancelled_exc_class") {
			e = pyast.Callee(e)
		}
		if _, ok := cancellationType(m, e); ok {
			found = !nameIs(m, e, "BaseException") && !nameIs(m, e, "builtins.BaseException")
		}
		return false
	})
	return found
}
