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

// asyncioCancelClasses are the classes of cancelClasses that match the
// cancellation an MCP server gets: the SDK runs on anyio's asyncio backend,
// where a cancelled task raises asyncio.CancelledError, never trio.Cancelled.
var asyncioCancelClasses = map[string]bool{
	"asyncio.CancelledError":            true,
	"asyncio.exceptions.CancelledError": true,
	"BaseException":                     true,
	"builtins.BaseException":            true,
}

// cancellationType reports whether the exception type expression e can match
// the cancellation, and names the matching part.
func cancellationType(m *pyast.Module, e *pyast.Node) (string, bool) {
	return matchesClasses(m, e, cancelClasses)
}

// matchesClasses is cancellationType for the cancellation classes in
// classes (anyio.get_cancelled_exc_class() always matches).
func matchesClasses(m *pyast.Module, e *pyast.Node, classes map[string]bool) (string, bool) {
	e = pyast.Unparen(e)
	if e == nil {
		return "", false
	}
	switch e.Kind() {
	case "tuple", "list":
		for _, el := range pyast.NamedChildren(e) {
			if what, ok := matchesClasses(m, el, classes); ok {
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
			if classes[q] {
				return m.Text(e), true
			}
		}
		if e.Kind() == "identifier" {
			// exc = anyio.get_cancelled_exc_class(); except exc: ...
			for _, b := range m.ScopeAt(e).Lookup(m.Text(e)) {
				if v := pyast.Unparen(b.Value()); v != nil && v.Kind() == "call" && v.Id() != e.Id() {
					if what, ok := matchesClasses(m, v, classes); ok {
						return m.Text(e) + " (" + what + ")", true
					}
				}
			}
		}
	}
	return "", false
}

// reraisesCancel reports whether an except body re-raises what it caught on
// some path (isinstance dispatch is common): see reraise.
func reraisesCancel(m *pyast.Module, clause, blk *pyast.Node) bool {
	_, name := exceptTarget(m, clause)
	found := false
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		if found || n.Kind() != "raise_statement" {
			return !found
		}
		found = reraise(m, name, n)
		return false
	})
	return found
}

// reraise reports whether raise statement r of an except body (whose caught
// exception is bound to name, "" for none) re-raises the cancellation: a
// bare raise, a raise of the bound name (also name.with_traceback(...)), or
// a raise of a cancellation class other than BaseException itself (raise
// asyncio.CancelledError(), which anyio and asyncio treat alike).
func reraise(m *pyast.Module, name string, r *pyast.Node) bool {
	if r.NamedChildCount() == 0 || r.NamedChild(0).Kind() == "comment" {
		return true
	}
	e := pyast.Unparen(r.NamedChild(0))
	if name != "" && e.Kind() == "identifier" && m.Text(e) == name {
		return true
	}
	if e.Kind() == "call" {
		if fn := pyast.Unparen(pyast.Callee(e)); name != "" && fn != nil && fn.Kind() == "attribute" &&
			m.Text(fn.ChildByFieldName("object")) == name && m.Text(fn.ChildByFieldName("attribute")) == "with_traceback" {
			return true
		}
		if !nameIs(m, pyast.Callee(e), "anyio.get_cancelled_exc_class") {
			e = pyast.Callee(e)
		}
	}
	return raisesCancelClass(m, e)
}

// raisesCancelClass reports whether the raised expression e (a class, or
// the callee of an instance) is a cancellation class other than
// BaseException.
func raisesCancelClass(m *pyast.Module, e *pyast.Node) bool {
	if _, ok := cancellationType(m, e); !ok {
		return false
	}
	return !nameIs(m, e, "BaseException") && !nameIs(m, e, "builtins.BaseException")
}

// replacingRaise returns the first raise statement of an except body that
// raises a different exception instead of the caught one (not a re-raise)
// and is not guarded by a type check of the caught exception that excludes
// the cancellation (guardedFromCancel), or nil.
func replacingRaise(m *pyast.Module, clause, blk *pyast.Node) *pyast.Node {
	if rs := replacingRaises(m, clause, blk); len(rs) > 0 {
		return rs[0]
	}
	return nil
}

// replacingRaises returns every raise statement of except body blk that
// raises a different exception where the cancellation can be caught.
func replacingRaises(m *pyast.Module, clause, blk *pyast.Node) []*pyast.Node {
	_, name := exceptTarget(m, clause)
	var out []*pyast.Node
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		if n.Kind() != "raise_statement" {
			return true
		}
		if !reraise(m, name, n) && !guardedFromCancel(m, blk, name, n) {
			out = append(out, n)
		}
		return false
	})
	return out
}

// raisedName names what raise statement r raises ("RuntimeError").
func raisedName(m *pyast.Module, r *pyast.Node) string {
	if r.NamedChildCount() == 0 {
		return "raise"
	}
	e := pyast.Unparen(r.NamedChild(0))
	if e.Kind() == "call" {
		e = pyast.Callee(e)
	}
	return m.Text(e)
}

// guardedFromCancel reports whether statement n of except body blk runs
// only when the caught exception (bound to name) is not the cancellation:
// inside `if isinstance(name, T):` with T no cancellation class (Exception,
// ValueError, a tuple of those), inside `if not isinstance(name, C):` or the
// else / a later elif of `if isinstance(name, C):` with C a cancellation
// class, or after `if isinstance(name, C): raise` (or `if not
// isinstance(name, T): raise`) in the same block or an enclosing one.
// `type(name) is T` counts like isinstance. A
// statement after an unconditional raise, return, break or continue never
// runs, and counts as guarded.
func guardedFromCancel(m *pyast.Module, blk *pyast.Node, name string, n *pyast.Node) bool {
	if name == "" {
		return false
	}
	for node := n; node != nil && node.Id() != blk.Id(); node = node.Parent() {
		p := node.Parent()
		if p == nil {
			return false
		}
		switch p.Kind() {
		case "block":
			for _, sib := range pyast.NamedChildren(p) {
				if sib.StartByte() >= node.StartByte() {
					break
				}
				switch sib.Kind() {
				case "raise_statement", "return_statement", "break_statement", "continue_statement":
					return true // n is unreachable
				}
				if sib.Kind() == "if_statement" && typeTest(m, name, sib.ChildByFieldName("condition")) == testCancel && leaves(sib.ChildByFieldName("consequence")) {
					return true
				}
			}
		case "if_statement":
			if c := p.ChildByFieldName("consequence"); c != nil && c.Id() == node.Id() && typeTest(m, name, p.ChildByFieldName("condition")) == testNotCancel {
				return true
			}
		case "elif_clause":
			if c := p.ChildByFieldName("consequence"); c != nil && c.Id() == node.Id() && typeTest(m, name, p.ChildByFieldName("condition")) == testNotCancel {
				return true
			}
			if earlierTestsCancel(m, name, p.Parent(), p) {
				return true
			}
		case "else_clause":
			if ifs := p.Parent(); ifs != nil && ifs.Kind() == "if_statement" && earlierTestsCancel(m, name, ifs, p) {
				return true
			}
		}
	}
	return false
}

// earlierTestsCancel reports whether the if statement's condition, or an
// elif condition before clause, tests that name is the cancellation.
func earlierTestsCancel(m *pyast.Module, name string, ifs, clause *pyast.Node) bool {
	if typeTest(m, name, ifs.ChildByFieldName("condition")) == testCancel {
		return true
	}
	for _, c := range pyast.NamedChildren(ifs) {
		if c.Id() == clause.Id() {
			break
		}
		if c.Kind() == "elif_clause" && typeTest(m, name, c.ChildByFieldName("condition")) == testCancel {
			return true
		}
	}
	return false
}

// leaves reports whether a block ends in a raise or return.
func leaves(b *pyast.Node) bool {
	stmts := blockStmts(b)
	if len(stmts) == 0 {
		return false
	}
	switch stmts[len(stmts)-1].Kind() {
	case "raise_statement", "return_statement":
		return true
	}
	return false
}

type testResult int

const (
	testUnknown   testResult = iota
	testCancel               // true whenever name is the cancellation
	testNotCancel            // true only when name is not the cancellation
)

// typeTest classifies a condition on the caught exception bound to name.
func typeTest(m *pyast.Module, name string, cond *pyast.Node) testResult {
	cond = pyast.Unparen(cond)
	if cond == nil {
		return testUnknown
	}
	switch cond.Kind() {
	case "not_operator":
		switch typeTest(m, name, cond.ChildByFieldName("argument")) {
		case testCancel:
			return testNotCancel
		case testNotCancel: // not isinstance(e, Exception): the cancellation is no Exception
			return testCancel
		}
		return testUnknown
	case "boolean_operator":
		l := typeTest(m, name, cond.ChildByFieldName("left"))
		r := typeTest(m, name, cond.ChildByFieldName("right"))
		if m.Text(cond.ChildByFieldName("operator")) == "and" {
			if l == testNotCancel || r == testNotCancel {
				return testNotCancel
			}
			return testUnknown
		}
		if l == testCancel || r == testCancel {
			return testCancel
		}
		if l == testNotCancel && r == testNotCancel {
			return testNotCancel
		}
		return testUnknown
	case "call":
		if !nameIs(m, pyast.Callee(cond), "isinstance") && !nameIs(m, pyast.Callee(cond), "builtins.isinstance") {
			return testUnknown
		}
		pos, _ := m.Args(cond)
		if len(pos) != 2 || m.Text(pyast.Unparen(pos[0])) != name {
			return testUnknown
		}
		return classTest(m, pos[1])
	case "comparison_operator":
		// type(name) is T / type(name) == T
		if cond.NamedChildCount() != 2 {
			return testUnknown
		}
		l, r := pyast.Unparen(cond.NamedChild(0)), cond.NamedChild(1)
		if l.Kind() != "call" || !nameIs(m, pyast.Callee(l), "type") {
			return testUnknown
		}
		pos, _ := m.Args(l)
		if len(pos) != 1 || m.Text(pyast.Unparen(pos[0])) != name {
			return testUnknown
		}
		between := m.Src[l.EndByte():r.StartByte()]
		if s := strings.TrimSpace(string(between)); s != "is" && s != "==" {
			return testUnknown
		}
		return classTest(m, r)
	}
	return testUnknown
}

// classTest: isinstance(x, T) is testCancel when T names a cancellation
// class, testNotCancel otherwise (Exception, project classes).
func classTest(m *pyast.Module, t *pyast.Node) testResult {
	if _, ok := cancellationType(m, t); ok {
		return testCancel
	}
	return testNotCancel
}
