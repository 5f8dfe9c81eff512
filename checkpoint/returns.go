package checkpoint

import (
	"github.com/mcplint/mcplint/pyast"
)

// The value an awaited project function returns decides some branches:
// `if not await browser.close(): raise Other(...) from exc`. When every path
// of close() that can return a falsy value passes a real checkpoint first,
// the branch taken on a falsy result follows a checkpoint, and anyio
// re-delivers a pending cancellation there (SPEC section 1): the raise
// cannot follow a cancel. ReturnsChecked answers that for one truth value;
// the flow uses it for an if (or elif) whose condition is `await f(...)` or
// `not await f(...)`, and for `x = await f(...)` right before `if x:` or
// `if not x:`.

// truth is what a constant says about a value's truth.
type truth int8

const (
	truthUnknown truth = iota
	truthTrue
	truthFalse
)

// constTruth is the truth of a constant expression: True, False, None, a
// decimal integer, a string with no interpolation; unknown for the rest.
func constTruth(m *pyast.Module, e *pyast.Node) truth {
	e = pyast.Unparen(e)
	if e == nil {
		return truthUnknown
	}
	switch e.Kind() {
	case "true":
		return truthTrue
	case "false", "none":
		return truthFalse
	case "integer":
		t := m.Text(e)
		switch {
		case t == "0":
			return truthFalse
		case t[0] >= '1' && t[0] <= '9':
			return truthTrue
		}
	case "string":
		content := false
		for _, c := range pyast.NamedChildren(e) {
			switch c.Kind() {
			case "interpolation":
				return truthUnknown
			case "string_content":
				if c.EndByte() > c.StartByte() {
					content = true
				}
			}
		}
		if content {
			return truthTrue
		}
		return truthFalse
	}
	return truthUnknown
}

type retKey struct {
	fn     *pyast.Function
	truthy bool
}

// ReturnsChecked reports whether every path of async function fn that can
// return a value of the given truth (truthy or falsy) passes a real
// checkpoint before it returns, so that a caller branching on the awaited
// result has passed a checkpoint on that branch. Exits by an exception are
// no returns. A return gives such a value unless it returns a constant of
// the other truth (constTruth); falling off the end or a bare return gives
// None. `return x` of a local name that fn binds by plain assignments `x =
// value` and by nothing else (and that fn's nested functions do not
// mention) gives what those assignments gave: an assignment of a value that may have
// the truth must then follow a checkpoint on every path.
//
// The question runs as a summary: a checkpoint whose cancellation an except
// clause catches must be followed by another one. Exceptions that a
// statement raises of itself (an await that fails, a call) are followed
// too: they may enter any except clause of the try around them, or be
// suppressed by a with statement's context manager, with no checkpoint
// before them, unless the try or with body starts with an unshielded await
// of a real checkpoint (`x = await call(...)`, `await call(...)` or `return
// await call(...)`) whose arguments run no code of their own (inertArgs):
// its failure is taken to come from the awaited operation after it
// yielded. Memoised; recursion counts as no.
func (a *Analyzer) ReturnsChecked(m *pyast.Module, fn *pyast.Function, truthy bool) bool {
	if fn == nil || fn.Body == nil || !fn.Async() || pyast.Yields(fn.Body) {
		return false
	}
	key := retKey{fn, truthy}
	if v, ok := a.returns[key]; ok {
		return v
	}
	if a.busyRet[key] {
		return false
	}
	return a.ask(m, fn, false, func() bool {
		a.busyRet[key] = true
		k := allCovered
		k.next = truthy // falling off the end returns None
		f := &flow{a: a, m: m, summary: true, implicit: true, exits: ExitReturn, end: &k, x: Extra{Fail: a.returnsGiving(m, fn, truthy)}}
		v := f.block(fn.Body, k, false)
		delete(a.busyRet, key)
		a.returns[key] = v
		return v
	})
}

// returnsGiving returns the statements of fn that make it return a value
// that may have the given truth (see ReturnsChecked): such returns, and the
// assignments of such values to tracked names that fn returns.
func (a *Analyzer) returnsGiving(m *pyast.Module, fn *pyast.Function, truthy bool) func(*pyast.Node) bool {
	gives := func(v *pyast.Node) bool {
		switch constTruth(m, v) {
		case truthTrue:
			return truthy
		case truthFalse:
			return !truthy
		}
		return true
	}
	bad := map[*pyast.Node]bool{}
	locals := a.trackedLocals(m, fn)
	tracked := map[string]bool{}
	pyast.WalkCode(fn.Body, func(n *pyast.Node) bool {
		if n.Kind() != "return_statement" {
			return true
		}
		v := pyast.ReturnValue(n)
		if v == nil {
			if !truthy {
				bad[n] = true
			}
			return false
		}
		if v.Kind() == "identifier" && locals[m.Text(v)] {
			tracked[m.Text(v)] = true
			return false
		}
		if gives(v) {
			bad[n] = true
		}
		return false
	})
	if len(tracked) > 0 {
		pyast.WalkCode(fn.Body, func(n *pyast.Node) bool {
			if n.Kind() != "assignment" {
				return true
			}
			left := n.ChildByFieldName("left")
			if left != nil && left.Kind() == "identifier" && tracked[m.Text(left)] && gives(pyast.AssignedValue(n)) {
				if s := stmtOf(n); s != nil {
					bad[s] = true
				}
			}
			return true
		})
	}
	return func(s *pyast.Node) bool { return bad[s] }
}

// trackedLocals returns the names that fn binds by at least one plain
// assignment `name = value` of its own code, by no other binding, and
// otherwise only reads (returns, tests, passes, compares): not parameters,
// and not mentioned in nested functions, lambdas, classes or
// comprehensions. Any other occurrence (for, with or except targets,
// augmented assignment, :=, unpacking, del, global, nonlocal, ...) makes a
// name untracked, and so does no assignment at all: the name is then a
// global or builtin whose value fn does not decide. One walk of fn's body,
// memoised.
func (a *Analyzer) trackedLocals(m *pyast.Module, fn *pyast.Function) map[string]bool {
	if t, ok := a.tracked[fn]; ok {
		return t
	}
	out := map[string]bool{}
	for _, p := range fn.Params {
		out[p.Name] = true
	}
	assigned := map[string]bool{}
	pyast.Walk(fn.Body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "function_definition", "lambda", "class_definition", "list_comprehension", "set_comprehension",
			"dictionary_comprehension", "generator_expression":
			pyast.Walk(n, func(c *pyast.Node) bool {
				if c.Kind() == "identifier" {
					out[m.Text(c)] = true
				}
				return true
			})
			return false
		case "identifier":
			switch {
			case !readOrAssigned(n):
				out[m.Text(n)] = true
			case isAssignTarget(n):
				assigned[m.Text(n)] = true
			}
		}
		return true
	})
	t := map[string]bool{}
	for name := range assigned {
		if !out[name] {
			t[name] = true
		}
	}
	a.tracked[fn] = t
	return t
}

// isAssignTarget reports whether identifier n is the target of a plain
// assignment.
func isAssignTarget(n *pyast.Node) bool {
	p := n.Parent()
	if p == nil || p.Kind() != "assignment" {
		return false
	}
	l := p.ChildByFieldName("left")
	return l != nil && l.Equals(n)
}

// readOrAssigned reports whether identifier n is the target of a plain
// assignment or is read where no binding can be.
func readOrAssigned(n *pyast.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	field := func(name string) bool {
		c := p.ChildByFieldName(name)
		return c != nil && c.Equals(n)
	}
	switch p.Kind() {
	case "assignment":
		return field("left") || field("right")
	case "return_statement", "not_operator", "boolean_operator", "comparison_operator", "binary_operator",
		"unary_operator", "parenthesized_expression", "argument_list", "conditional_expression", "interpolation":
		return true
	case "if_statement", "elif_clause", "while_statement":
		return field("condition")
	case "keyword_argument":
		return field("value")
	case "attribute":
		return field("object")
	case "subscript":
		return field("value")
	}
	return false
}

// outcome says, for a branch condition, whether the paths on which it is
// true, and those on which it is false, passed a real checkpoint in
// evaluating it.
type outcome struct{ onTrue, onFalse bool }

// condOutcome is the outcome of an if or elif condition `await f(...)` or
// `not await f(...)` (any number of nots) of a project async function f,
// from ReturnsChecked; with after set, only when the await starts after it
// ends or its call's arguments hold it (as laterCP).
func (f *flow) condOutcome(cond *pyast.Node, sh bool, after *pyast.Node) outcome {
	e, neg := stripNot(cond)
	if sh || e == nil || e.Kind() != "await" || f.ignored(e) {
		return outcome{}
	}
	call := pyast.Unparen(e.NamedChild(0))
	if call == nil || call.Kind() != "call" {
		return outcome{}
	}
	if after != nil && e.StartByte() < after.EndByte() {
		args := call.ChildByFieldName("arguments")
		if args == nil || !within(after, args) {
			return outcome{}
		}
	}
	return f.awaitedOutcome(call, neg)
}

// awaitedOutcome is the outcome of testing the awaited result of call,
// negated or not.
func (f *flow) awaitedOutcome(call *pyast.Node, neg bool) outcome {
	if f.a == nil || f.a.resolver == nil {
		return outcome{}
	}
	cs := f.a.asyncCallees(f.m, call)
	if len(cs) == 0 {
		return outcome{}
	}
	// The condition is true when the result is truthy, or falsy under not;
	// a branch is checked when it is whichever function runs.
	out := outcome{onTrue: true, onFalse: true}
	for _, c := range cs {
		out.onTrue = out.onTrue && f.a.ReturnsChecked(c.Module, c.Func, !neg)
		out.onFalse = out.onFalse && f.a.ReturnsChecked(c.Module, c.Func, neg)
	}
	return out
}

// assignedOutcome is the outcome of if statement s when the statement
// before it, prev, is `x = await f(...)` and s tests `x` or `not x`.
func (f *flow) assignedOutcome(prev, s *pyast.Node, sh bool) (outcome, bool) {
	if s.Kind() != "if_statement" || sh || prev.Kind() != "expression_statement" {
		return outcome{}, false
	}
	name, neg := stripNot(s.ChildByFieldName("condition"))
	as := pyast.Unparen(prev.NamedChild(0))
	if name == nil || name.Kind() != "identifier" || as == nil || as.Kind() != "assignment" {
		return outcome{}, false
	}
	left, right := as.ChildByFieldName("left"), pyast.Unparen(as.ChildByFieldName("right"))
	if left == nil || left.Kind() != "identifier" || f.m.Text(left) != f.m.Text(name) ||
		right == nil || right.Kind() != "await" || f.ignored(right) {
		return outcome{}, false
	}
	call := pyast.Unparen(right.NamedChild(0))
	if call == nil || call.Kind() != "call" {
		return outcome{}, false
	}
	return f.awaitedOutcome(call, neg), true
}

// stripNot removes the nots (and parentheses) around e and says whether
// their number is odd.
func stripNot(e *pyast.Node) (*pyast.Node, bool) {
	neg := false
	e = pyast.Unparen(e)
	for e != nil && e.Kind() == "not_operator" {
		neg = !neg
		e = pyast.Unparen(e.ChildByFieldName("argument"))
	}
	return e, neg
}

// startsCP reports whether block b starts with an unshielded await of a
// real checkpoint: `await call(...)`, `x = await call(...)` or `return
// await call(...)` (see ReturnsChecked).
func (f *flow) startsCP(b *pyast.Node, sh bool) bool {
	if sh || b == nil {
		return false
	}
	for _, s := range pyast.NamedChildren(b) {
		var e *pyast.Node
		switch s.Kind() {
		case "comment":
			continue
		case "expression_statement":
			e = pyast.Unparen(s.NamedChild(0))
			if e != nil && e.Kind() == "assignment" {
				e = pyast.Unparen(e.ChildByFieldName("right"))
			}
		case "return_statement":
			e = pyast.ReturnValue(s)
		}
		if e == nil || e.Kind() != "await" || f.ignored(e) || !f.a.IsCheckpointAwait(f.m, e) {
			return false
		}
		return f.inertArgs(pyast.Unparen(e.NamedChild(0)))
	}
	return false
}

// inertArgs reports whether evaluating the arguments of call runs no code
// that could raise before the awaited operation starts: names, attributes,
// constants, and calls that make a checkpoint's coroutine (wait_for's
// argument).
func (f *flow) inertArgs(call *pyast.Node) bool {
	args := call.ChildByFieldName("arguments")
	if args == nil {
		return true
	}
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() == "keyword_argument" {
			a = a.ChildByFieldName("value")
		}
		a = pyast.Unparen(a)
		if a == nil {
			return false
		}
		switch a.Kind() {
		case "comment", "identifier", "attribute", "string", "integer", "float", "true", "false", "none":
		case "call":
			if !f.a.isCheckpointCall(f.m, a) || !f.inertArgs(a) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
