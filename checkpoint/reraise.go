package checkpoint

import "github.com/mcplint/mcplint/pyast"

// raisedCancelClasses are the classes whose raise is the cancellation
// itself (not BaseException, which only catches it).
var raisedCancelClasses = map[string]bool{
	"asyncio.CancelledError": true, "asyncio.exceptions.CancelledError": true,
	"concurrent.futures.CancelledError": true, "trio.Cancelled": true,
	"anyio.get_cancelled_exc_class": true,
}

// Reraises reports whether raise statement r raises the cancellation rather
// than a different exception:
//   - a bare raise, or a raise of the name bound by the except clause it is
//     in (also name.with_traceback(...)), when the innermost except clause
//     around it in its function can catch the cancellation (catchesCancel):
//     it re-raises what that clause caught. In an except clause that cannot
//     (except TimeoutError: raise) it raises that other exception;
//   - a bare raise outside any except clause of its function (what it
//     re-raises is its caller's business);
//   - a raise of a cancellation class: asyncio.CancelledError(),
//     trio.Cancelled, anyio.get_cancelled_exc_class()() (also through a name
//     bound to get_cancelled_exc_class()).
//
// `raise Other(...) from exc` is a different exception, whatever exc is.
func Reraises(m *pyast.Module, r *pyast.Node) bool {
	if r == nil || r.Kind() != "raise_statement" {
		return false
	}
	var e *pyast.Node
	for _, c := range pyast.NamedChildren(r) {
		if c.Kind() != "comment" {
			e = pyast.Unparen(c)
			break
		}
	}
	clause := exceptAround(r)
	if e == nil { // bare raise
		return clause == nil || catchesCancel(m, clause)
	}
	if clause != nil && catchesCancel(m, clause) {
		if name := caughtName(m, clause); name != "" {
			obj := e
			if obj.Kind() == "call" {
				if fn := pyast.Unparen(pyast.Callee(obj)); fn != nil && fn.Kind() == "attribute" && m.Text(fn.ChildByFieldName("attribute")) == "with_traceback" {
					obj = pyast.Unparen(fn.ChildByFieldName("object"))
				}
			}
			if obj != nil && obj.Kind() == "identifier" && m.Text(obj) == name {
				return true
			}
		}
	}
	return raisesCancelClass(m, e, 0)
}

// raisesCancelClass reports whether the raised expression e is a
// cancellation class or an instance made by calling one.
func raisesCancelClass(m *pyast.Module, e *pyast.Node, depth int) bool {
	e = pyast.Unparen(e)
	if e == nil || depth > 2 {
		return false
	}
	switch e.Kind() {
	case "call":
		return raisesCancelClass(m, pyast.Callee(e), depth+1)
	case "identifier", "attribute":
		for _, q := range m.Resolve(e) {
			if raisedCancelClasses[q] {
				return true
			}
		}
		if e.Kind() == "identifier" {
			// exc_class = anyio.get_cancelled_exc_class(); raise exc_class()
			for _, b := range m.ScopeAt(e).Lookup(m.TextView(e)) {
				if v := pyast.Unparen(b.Value()); b.Kind == pyast.BindValue && v != nil && v.Kind() == "call" && !v.Equals(e) {
					if raisesCancelClass(m, pyast.Callee(v), depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// exceptAround returns the innermost except clause whose body holds n in
// n's own function, or nil.
func exceptAround(n *pyast.Node) *pyast.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda", "class_definition":
			return nil
		case "except_clause", "except_group_clause":
			return p
		}
	}
	return nil
}

// caughtName is the name an except clause binds ("" for none).
func caughtName(m *pyast.Module, clause *pyast.Node) string {
	v := clause.ChildByFieldName("value")
	if v == nil || v.Kind() != "as_pattern" {
		return ""
	}
	if a := v.ChildByFieldName("alias"); a != nil {
		return m.Text(pyast.Unparen(a))
	}
	return ""
}

// raiseCont is where raise statement r (not a re-raise of the
// cancellation) goes: its try's handlers only when they surely catch it
// (raisesCaught), else also on past the try.
func (f *flow) raiseCont(r *pyast.Node, k cont) bool {
	if raisesCaught(f.m, r) {
		return k.caught
	}
	return k.exc
}

// raisesCaught reports whether an except clause of the innermost try
// statement whose body holds raise statement r names the class r raises
// (raise ValueError(...) into except (KeyError, ValueError):), by resolved
// name or spelling. Subclasses are not followed.
func raisesCaught(m *pyast.Module, r *pyast.Node) bool {
	if r.NamedChildCount() == 0 {
		return false
	}
	e := pyast.Unparen(r.NamedChild(0))
	if e != nil && e.Kind() == "call" {
		e = pyast.Unparen(pyast.Callee(e))
	}
	if e == nil || (e.Kind() != "identifier" && e.Kind() != "attribute") {
		return false
	}
	try := tryAround(r)
	if try == nil {
		return false
	}
	raised := m.Resolve(e)
	for _, h := range pyast.NamedChildren(try) {
		if h.Kind() != "except_clause" && h.Kind() != "except_group_clause" {
			continue
		}
		for _, t := range exceptTypes(h) {
			if m.Text(t) == m.Text(e) {
				return true
			}
			for _, q := range m.Resolve(t) {
				for _, q2 := range raised {
					if q == q2 {
						return true
					}
				}
			}
		}
	}
	return false
}

// tryAround returns the innermost try statement whose body holds n in n's
// own function, or nil.
func tryAround(n *pyast.Node) *pyast.Node {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda", "class_definition":
			return nil
		case "try_statement":
			if b := p.ChildByFieldName("body"); b != nil && b.Equals(c) {
				return p
			}
		}
	}
	return nil
}

// exceptTypes returns the class expressions an except clause names (the
// elements of a tuple); none for a bare except.
func exceptTypes(clause *pyast.Node) []*pyast.Node {
	v := clause.ChildByFieldName("value")
	if v != nil && v.Kind() == "as_pattern" {
		v = v.NamedChild(0)
	}
	v = pyast.Unparen(v)
	if v == nil {
		return nil
	}
	if v.Kind() == "tuple" || v.Kind() == "list" {
		var out []*pyast.Node
		for _, el := range pyast.NamedChildren(v) {
			out = append(out, pyast.Unparen(el))
		}
		return out
	}
	return []*pyast.Node{v}
}

// catchAllTypes catch every exception but the cancellation's kin.
var catchAllTypes = map[string]bool{
	"Exception": true, "builtins.Exception": true, "BaseException": true, "builtins.BaseException": true,
}

// catchesAll reports whether one of the except clauses catches every
// exception a raise statement or an awaited function can raise here (bare
// except, Exception, BaseException), so that none goes on past the try.
func catchesAll(m *pyast.Module, handlers []*pyast.Node) bool {
	for _, h := range handlers {
		if h.ChildByFieldName("value") == nil {
			return true
		}
		for _, t := range exceptTypes(h) {
			for _, q := range m.Resolve(t) {
				if catchAllTypes[q] {
					return true
				}
			}
		}
	}
	return false
}
