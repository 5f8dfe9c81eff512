package values

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// A predicate (of inspect.getmembers) is decided for each value it is
// asked of where the engine can tell: the inspect tests (isfunction,
// iscoroutinefunction, isclass, ismethod, isroutine) and callable, of the
// predicate itself or called in the body of a lambda or a one-return def;
// and in such a body not, and, or, == and != of strings the engine knows,
// and str.startswith / endswith, over what the engine knows of the value
// (a function's or class's __name__ and __module__, a module's __name__). What it
// cannot tell keeps the value: a member is dropped only when the predicate
// is false for it.

// predicate returns the test predicate value p applies.
func (e *Engine) predicate(p *Value) func(*Value) bool {
	if p.Kind == External {
		if t := e.inspectTest(p.Name); t != nil {
			return func(v *Value) bool { return t(v) != tFalse }
		}
		return func(*Value) bool { return true }
	}
	var m *pyast.Module
	var param string
	var body *pyast.Node
	switch {
	case p.Kind == Function && p.Lambda != nil:
		m, body = p.Mod, p.Lambda.ChildByFieldName("body")
		if ps := p.Lambda.ChildByFieldName("parameters"); ps != nil && ps.NamedChildCount() > 0 {
			if id := ps.NamedChild(0); id.Kind() == "identifier" {
				param = m.Text(id)
			}
		}
	case p.Kind == Function && p.Func != nil && len(p.Func.Params) > 0:
		m, param = p.Mod, p.Func.Params[0].Name
		if b := p.Func.Node.ChildByFieldName("body"); b != nil && b.NamedChildCount() == 1 {
			if r := b.NamedChild(0); r.Kind() == "return_statement" {
				body = pyast.ReturnValue(r)
			}
		}
	}
	if body == nil || param == "" {
		return func(*Value) bool { return true }
	}
	return func(v *Value) bool { return e.truth(m, body, param, v) != tFalse }
}

// inspectTest is the test of inspect function q (or callable), or nil: true
// or false for the project's values, unknown for what the engine cannot
// tell (an unknown, a library's name or what a call of one returns).
func (e *Engine) inspectTest(q string) func(*Value) tri {
	var test func(v *Value) bool
	switch q {
	case "inspect.isfunction":
		test = func(v *Value) bool { return v.Kind == Function }
	case "inspect.iscoroutinefunction":
		test = func(v *Value) bool { return v.Kind == Function && v.Func != nil && v.Func.Async() }
	case "inspect.isclass":
		test = func(v *Value) bool { return v.Kind == Class }
	case "inspect.ismethod":
		test = func(v *Value) bool { return v.Kind == Method }
	case "inspect.isroutine":
		test = func(v *Value) bool { return v.Kind == Function || v.Kind == Method }
	case "callable":
		test = func(v *Value) bool {
			switch v.Kind {
			case Function, Method, Class, Partial:
				return true
			case Instance:
				f, _ := e.classMethod(v, "__call__")
				return f != nil
			}
			return false
		}
	default:
		return nil
	}
	return func(v *Value) tri {
		switch v.Kind {
		case Unknown, External, ExtResult:
			return tUnknown
		}
		return triOf(test(v))
	}
}

type tri uint8

const (
	tUnknown tri = iota
	tFalse
	tTrue
)

func triOf(b bool) tri {
	if b {
		return tTrue
	}
	return tFalse
}

// truth decides expression n of a predicate's body for value v bound to
// its parameter param.
func (e *Engine) truth(m *pyast.Module, n *pyast.Node, param string, v *Value) tri {
	n = pyast.Unparen(n)
	if n == nil {
		return tUnknown
	}
	switch n.Kind() {
	case "not_operator":
		switch e.truth(m, n.ChildByFieldName("argument"), param, v) {
		case tTrue:
			return tFalse
		case tFalse:
			return tTrue
		}
		return tUnknown
	case "boolean_operator":
		l := e.truth(m, n.ChildByFieldName("left"), param, v)
		r := e.truth(m, n.ChildByFieldName("right"), param, v)
		if m.Text(n.ChildByFieldName("operator")) == "and" {
			switch {
			case l == tFalse || r == tFalse:
				return tFalse
			case l == tTrue && r == tTrue:
				return tTrue
			}
			return tUnknown
		}
		switch {
		case l == tTrue || r == tTrue:
			return tTrue
		case l == tFalse && r == tFalse:
			return tFalse
		}
		return tUnknown
	case "comparison_operator":
		ops := pyast.NamedChildren(n)
		if len(ops) != 2 || n.ChildCount() != 3 {
			return tUnknown
		}
		op := n.Child(1).Kind()
		if op != "==" && op != "!=" {
			return tUnknown
		}
		a, okA := e.predTexts(m, ops[0], param, v)
		b, okB := e.predTexts(m, ops[1], param, v)
		if !okA || !okB {
			return tUnknown
		}
		eq := tUnknown
		switch {
		case len(a) == 1 && len(b) == 1:
			eq = triOf(a[0] == b[0])
		case disjoint(a, b):
			eq = tFalse
		}
		if op == "!=" && eq != tUnknown {
			eq = triOf(eq == tFalse)
		}
		return eq
	case "call":
		pos, _ := m.Args(n)
		callee := pyast.Unparen(pyast.Callee(n))
		if callee == nil || len(pos) != 1 {
			return tUnknown
		}
		if callee.Kind() == "attribute" {
			switch m.Text(callee.ChildByFieldName("attribute")) {
			case "startswith", "endswith":
				s, ok := e.predTexts(m, callee.ChildByFieldName("object"), param, v)
				arg, okArg := e.predTexts(m, pos[0], param, v)
				if !ok || !okArg || len(s) != 1 || len(arg) != 1 {
					return tUnknown
				}
				if m.Text(callee.ChildByFieldName("attribute")) == "startswith" {
					return triOf(strings.HasPrefix(s[0], arg[0]))
				}
				return triOf(strings.HasSuffix(s[0], arg[0]))
			}
		}
		if a := pyast.Unparen(pos[0]); a.Kind() != "identifier" || m.Text(a) != param {
			return tUnknown
		}
		for _, f := range e.eval(m, callee, nil) {
			if f.Kind == External {
				if t := e.inspectTest(f.Name); t != nil {
					return t(v)
				}
			}
		}
	}
	return tUnknown
}

// predTexts returns the strings expression n of a predicate's body can be
// for value v bound to param (constants, a dunder name of v, what the
// engine says), when every value it can be is one.
func (e *Engine) predTexts(m *pyast.Module, n *pyast.Node, param string, v *Value) ([]string, bool) {
	n = pyast.Unparen(n)
	var vals Set
	if n.Kind() == "attribute" {
		if o := pyast.Unparen(n.ChildByFieldName("object")); o.Kind() == "identifier" && m.Text(o) == param {
			vals = e.attrOf(v, m.Text(n.ChildByFieldName("attribute")))
		}
	}
	if vals == nil {
		if n.Kind() == "identifier" && m.Text(n) == param {
			return nil, false
		}
		vals = e.eval(m, n, nil)
	}
	if len(vals) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(vals))
	for _, x := range vals {
		s, ok := e.textOf(x)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// disjoint reports whether no string of a is in b.
func disjoint(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return false
			}
		}
	}
	return true
}
