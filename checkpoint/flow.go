package checkpoint

import (
	"github.com/mcplint/mcplint/pyast"
)

// cont says, for each way control can leave a piece of code, whether every
// path from there to the normal end of the function passes a checkpoint.
type cont struct {
	next bool // falls off the end
	brk  bool // break of the innermost loop
	cont bool // continue of the innermost loop
	ret  bool // return statement
	exc  bool // raise of another exception than the cancellation (Exits)
	// caught: a raise statement whose exception the except clauses of the
	// innermost try around it surely catch (raisesCaught): only their
	// paths, not the exception going on past the try.
	caught bool
}

// Exits are the ways a path leaves a function that end a handler after an
// unobserved cancellation: a normal return, or raising an exception that is
// not the cancellation itself (mcp 1.x turns it into an error response, a
// second response to the cancelled request, like a late result). A raise of
// the cancellation (Reraises) is no such exit: the SDK expects it, so it
// counts like a checkpoint.
type Exits uint8

const (
	// ExitReturn: falling off the end of the function or a return.
	ExitReturn Exits = 1 << iota
	// ExitRaise: a raise statement of another exception that leaves the
	// function (one caught by a try of the same function follows the try's
	// flow), or such an exception coming out of an awaited project function
	// (RaisesUnchecked) that nothing in the function catches.
	ExitRaise
	// AnyExit is both.
	AnyExit = ExitReturn | ExitRaise
)

// funcEnd is the continuation of a function body for a question about the
// exits e: the paths leaving by one of them are not covered, the others are
// (they are another question's).
func funcEnd(e Exits) cont {
	ret := e&ExitReturn == 0
	exc := e&ExitRaise == 0
	return cont{next: ret, brk: ret, cont: ret, ret: ret, exc: exc, caught: exc}
}

// bodyEnd is the continuation of the function's body: f.end, else
// funcEnd(f.exits).
func (f *flow) bodyEnd() cont {
	if f.end != nil {
		return *f.end
	}
	return funcEnd(f.exits)
}

var allCovered = cont{next: true, brk: true, cont: true, ret: true, exc: true, caught: true}

func (k cont) with(next bool) cont { k.next = next; return k }

type flow struct {
	a *Analyzer
	m *pyast.Module
	x Extra
	// summary: the question is whether awaiting a whole function is a
	// checkpoint for its callers (AlwaysCheckpoints, RaisesUnchecked).
	summary bool
	// exits are the ways of leaving the function the question is about:
	// funcEnd(exits) is the continuation of its body.
	exits Exits
	// end, when set, is the continuation of the function's body in place
	// of funcEnd(exits) (ReturnsChecked's, which asks about the values
	// returned).
	end *cont
	// implicit: exceptions a statement raises of itself (not raise
	// statements) are followed into the except clauses of the try around
	// them and out of with statements whose context manager may suppress
	// them (ReturnsChecked).
	implicit bool
	// reasking holds the except clauses whose question is being asked
	// again from the clause (the summary's swallowed-cancel check): the
	// clause's continuation can analyse an enclosing handler's block, and
	// with it this try statement, again.
	reasking map[*pyast.Node]bool
}

// Extra adjusts a coverage question for MCP104, which asks what follows a
// swallowed cancellation.
type Extra struct {
	// Ignore: awaits inside this node are not checkpoints (the try body
	// whose cancellation is swallowed: going round a loop into it again
	// raises into the same except).
	Ignore *pyast.Node
	// Stop reports statements that end a path as a checkpoint would
	// (`if cancelled: raise CancelledError` after a flag was set).
	Stop func(stmt *pyast.Node) bool
	// Fail reports statements that end a path as a normal return would,
	// unless their own expression checkpoints (a raise of a different
	// exception in the except body that caught the cancellation: only a
	// real checkpoint before it re-delivers the cancellation).
	Fail func(stmt *pyast.Node) bool
	// Yield: a yield (of the function, not of a nested one) is a
	// checkpoint. The function is an async generator whose every consumer
	// goes on from a yield into the body of its async for, after which
	// every path of the consumer passes one (see steppedIter in rules).
	Yield bool
}

// ignored reports whether an await or statement n is inside f.x.Ignore.
func (f *flow) ignored(n *pyast.Node) bool {
	return f.x.Ignore != nil && within(n, f.x.Ignore)
}

// Covered reports whether every path from the end of node (an await, a call
// or a statement) to an exit of fn (a normal return, or a raise of another
// exception than the cancellation: Exits) passes a real checkpoint. For a
// node inside an expression, later checkpoints of the same statement count
// (await ctx.info(str(await x))); for a node in the header of an if, while,
// for, with or match statement, the paths go through its bodies; for a
// statement node, the paths start after the whole statement.
func (a *Analyzer) Covered(m *pyast.Module, fn *pyast.Function, node *pyast.Node) bool {
	return a.CoveredAfter(m, fn, node, Extra{})
}

// CoveredAfter is Covered with the adjustments of x.
func (a *Analyzer) CoveredAfter(m *pyast.Module, fn *pyast.Function, node *pyast.Node, x Extra) bool {
	return a.UncoveredAfter(m, fn, node, x) == 0
}

// UncoveredAfter returns the exits of fn that some path from the end of
// node reaches with no real checkpoint (Covered is UncoveredAfter == 0).
func (a *Analyzer) UncoveredAfter(m *pyast.Module, fn *pyast.Function, node *pyast.Node, x Extra) Exits {
	return a.uncovered(m, fn, x, func(f *flow) bool { return f.coveredAfter(fn, node) })
}

// CoveredFrom reports whether every path from the start of start (a block,
// such as an except clause's body, or a statement, such as a return in a
// finally: block) to an exit of fn passes a real checkpoint, with the
// adjustments of x.
func (a *Analyzer) CoveredFrom(m *pyast.Module, fn *pyast.Function, start *pyast.Node, x Extra) bool {
	return a.UncoveredFrom(m, fn, start, x) == 0
}

// UncoveredFrom returns the exits of fn that some path from the start of
// start reaches with no real checkpoint.
func (a *Analyzer) UncoveredFrom(m *pyast.Module, fn *pyast.Function, start *pyast.Node, x Extra) Exits {
	if start == nil {
		return AnyExit
	}
	return a.uncovered(m, fn, x, func(f *flow) bool {
		sh := f.shieldedAt(start)
		if start.Kind() == "block" {
			return f.block(start, f.blockCont(fn, start), sh)
		}
		s := stmtOf(start)
		if s == nil {
			return false
		}
		return f.stmt(s, f.stmtCont(fn, s), sh)
	})
}

// UncoveredRaising returns the exits of fn that an exception (not the
// cancellation) raised at node reaches with no real checkpoint: the except
// clauses of the try statements around node in fn, their finally clauses,
// and out of fn. A caller's view of a project function that raises
// (RaisesUnchecked): the exception comes out of the call.
func (a *Analyzer) UncoveredRaising(m *pyast.Module, fn *pyast.Function, node *pyast.Node) Exits {
	return a.uncovered(m, fn, Extra{}, func(f *flow) bool {
		s := stmtOf(node)
		return s != nil && f.stmtCont(fn, s).exc
	})
}

// uncovered asks q once for each kind of exit.
func (a *Analyzer) uncovered(m *pyast.Module, fn *pyast.Function, x Extra, q func(f *flow) bool) Exits {
	var out Exits
	for _, e := range [...]Exits{ExitReturn, ExitRaise} {
		if !a.ask(m, fn, true, func() bool { return q(&flow{a: a, m: m, x: x, exits: e}) }) {
			out |= e
		}
	}
	return out
}

// AlwaysCheckpoints reports whether every normal return of fn passes a real
// checkpoint, so that awaiting fn is itself a checkpoint for the paths
// that go on after the call (its raises are RaisesUnchecked). Memoised; a
// function met again while being analysed (recursion) does not.
func (a *Analyzer) AlwaysCheckpoints(m *pyast.Module, fn *pyast.Function) bool {
	if fn == nil || fn.Body == nil || !fn.Async() {
		return false
	}
	if v, ok := a.always[fn]; ok {
		return v
	}
	if a.busy[fn] {
		return false
	}
	return a.ask(m, fn, false, func() bool {
		a.busy[fn] = true
		f := &flow{a: a, m: m, summary: true, exits: ExitReturn}
		v := f.block(fn.Body, funcEnd(ExitReturn), false)
		delete(a.busy, fn)
		a.always[fn] = v
		return v
	})
}

// RaisesUnchecked reports whether some path of async function fn raises an
// exception other than the cancellation out of fn with no real checkpoint
// before it, so that awaiting fn can end its caller's path the way a raise
// statement there would. Memoised like AlwaysCheckpoints; recursion counts
// as no.
func (a *Analyzer) RaisesUnchecked(m *pyast.Module, fn *pyast.Function) bool {
	if fn == nil || fn.Body == nil || !fn.Async() {
		return false
	}
	if v, ok := a.raises[fn]; ok {
		return v
	}
	if a.busyRaise[fn] {
		return false
	}
	return a.ask(m, fn, false, func() bool {
		a.busyRaise[fn] = true
		f := &flow{a: a, m: m, summary: true, exits: ExitRaise}
		v := !f.block(fn.Body, funcEnd(ExitRaise), false)
		delete(a.busyRaise, fn)
		a.raises[fn] = v
		return v
	})
}

// EntersCheckpoint reports whether fn is an async generator decorated with
// contextlib.asynccontextmanager whose code before the yield passes a real
// checkpoint on every path, so that entering `async with fn(...)` is itself
// a checkpoint: a statement before the one holding the yield checkpoints
// (StatementCheckpoints), or the yield is inside a with whose head
// checkpoints or inside a with or try body where that holds again.
// Memoised like AlwaysCheckpoints.
func (a *Analyzer) EntersCheckpoint(m *pyast.Module, fn *pyast.Function) bool {
	if fn == nil || fn.Body == nil || !fn.Async() || !AsyncContextManager(m, fn) {
		return false
	}
	if v, ok := a.enters[fn]; ok {
		return v
	}
	if a.busy[fn] {
		return false
	}
	return a.ask(m, fn, false, func() bool {
		a.busy[fn] = true
		f := &flow{a: a, m: m}
		v := f.beforeYield(pyast.NamedChildren(fn.Body))
		delete(a.busy, fn)
		a.enters[fn] = v
		return v
	})
}

// AsyncContextManager reports whether fn is decorated with
// contextlib.asynccontextmanager: its yield is where the body of the async
// with it enters runs, and where that body's exception (a cancellation
// included) is thrown in on exit.
func AsyncContextManager(m *pyast.Module, fn *pyast.Function) bool {
	for _, d := range fn.Decorators {
		for _, q := range m.Resolve(d) {
			if q == "contextlib.asynccontextmanager" {
				return true
			}
		}
	}
	return false
}

// beforeYield: every path from the start of stmts to the first yield passes
// a checkpoint.
func (f *flow) beforeYield(stmts []*pyast.Node) bool {
	for _, s := range stmts {
		if !pyast.Yields(s) {
			if f.stmt(s, cont{}, f.shieldedAt(s)) {
				return true
			}
			continue
		}
		switch s.Kind() {
		case "with_statement":
			if f.withHeadCP(s, f.shieldedAt(s)) {
				return true
			}
			if f.shields(s) {
				return false
			}
			return f.beforeYield(pyast.NamedChildren(s.ChildByFieldName("body")))
		case "try_statement":
			return f.beforeYield(pyast.NamedChildren(s.ChildByFieldName("body")))
		}
		return false
	}
	return false
}

// StatementCheckpoints reports whether every path through statement s (a
// statement node of fn) passes a checkpoint before leaving it in any way.
func (a *Analyzer) StatementCheckpoints(m *pyast.Module, s *pyast.Node) bool {
	return a.ask(m, m.FuncAt(s), false, func() bool {
		f := &flow{a: a, m: m}
		return f.stmt(s, cont{}, f.shieldedAt(s))
	})
}

// block: every path from the start of block b covers, given k.
func (f *flow) block(b *pyast.Node, k cont, sh bool) bool {
	if b == nil {
		return k.next
	}
	return f.seq(pyast.NamedChildren(b), 0, k, sh)
}

// seq: every path from the start of stmts[i:] covers.
func (f *flow) seq(stmts []*pyast.Node, i int, k cont, sh bool) bool {
	cur := k.next
	for j := len(stmts) - 1; j >= i; j-- {
		if j > i {
			// x = await f(...) then if x: / if not x: (a path that
			// starts between them has the result already)
			if o, ok := f.assignedOutcome(stmts[j-1], stmts[j], sh); ok {
				cur = f.stmtKnowing(stmts[j], k.with(cur), sh, o)
				continue
			}
		}
		cur = f.stmt(stmts[j], k.with(cur), sh)
	}
	return cur
}

// stmt: every path from the start of statement s covers, given that leaving
// s normally continues with k.next (and so on).
func (f *flow) stmt(s *pyast.Node, k cont, sh bool) bool {
	return f.stmtKnowing(s, k, sh, outcome{})
}

// stmtKnowing is stmt for an if statement whose condition's outcome is
// known from the statement before it (assignedOutcome); known is empty for
// any other statement.
func (f *flow) stmtKnowing(s *pyast.Node, k cont, sh bool, known outcome) bool {
	f.step()
	if f.x.Stop != nil && f.x.Stop(s) {
		return true
	}
	if f.x.Fail != nil && f.x.Fail(s) {
		return f.exprCP(s, sh)
	}
	if !k.exc && f.helperRaises(ownExpr(s), nil) {
		return false // an awaited project function raises out of s as a raise statement would
	}
	switch s.Kind() {
	case "comment", "pass_statement", "function_definition", "class_definition", "decorated_definition",
		"import_statement", "import_from_statement", "future_import_statement", "global_statement", "nonlocal_statement":
		return k.next
	case "break_statement":
		return k.brk
	case "continue_statement":
		return k.cont
	case "return_statement":
		return f.exprCP(s, sh) || k.ret
	case "raise_statement":
		return Reraises(f.m, s) || f.exprCP(s, sh) || f.raiseCont(s, k)
	case "if_statement":
		cond := s.ChildByFieldName("condition")
		if f.exprCP(cond, sh) {
			return true
		}
		o := f.condOutcome(cond, sh, nil)
		o.onTrue, o.onFalse = o.onTrue || known.onTrue, o.onFalse || known.onFalse
		return f.ifBranches(s, -1, k, sh, o)
	case "while_statement":
		if f.exprCP(s.ChildByFieldName("condition"), sh) {
			return true
		}
		return f.loopHead(s, k, sh)
	case "for_statement":
		if f.exprCP(s.ChildByFieldName("right"), sh) {
			return true
		}
		return f.loopHead(s, k, sh)
	case "try_statement":
		t := f.tryConts(s, k, sh)
		body := s.ChildByFieldName("body")
		if !f.block(body, t.body, sh) {
			return false
		}
		if f.implicit && !t.body.exc && !f.startsCP(body, sh) {
			return false // an exception of the body's own goes to a handler (or on) with no checkpoint
		}
		// For a function's summary: a cancellation delivered at a
		// checkpoint in the body goes to an except clause that catches
		// it, which goes on with no checkpoint behind it, so a helper that
		// swallows the cancel is no checkpoint for its callers. (Inside
		// one function that swallow is a finding of its own.) Going round
		// a loop into the same try body again is no re-delivery, as for
		// MCP104 (Extra.Ignore): the wait it retries can end without
		// suspending (await asyncio.shield(task) once the task is done).
		for _, h := range pyast.NamedChildren(s) {
			if !f.summary {
				break
			}
			if (h.Kind() == "except_clause" || h.Kind() == "except_group_clause") && catchesCancel(f.m, h) && f.findCP(body, func(*pyast.Node) bool { return true }) {
				// The question is asked again from the handler, so that
				// the loops around the try are followed with its body
				// ignored (t.handler assumes going round again covers).
				if f.reasking[h] {
					// Asked again from inside its own question (this try
					// statement is in an enclosing handler's block, which
					// the clause's continuation analyses): as for going
					// round a loop, the answer under way covers.
					continue
				}
				if f.reasking == nil {
					f.reasking = map[*pyast.Node]bool{}
				}
				g := &flow{a: f.a, m: f.m, x: f.x, summary: true, exits: f.exits, end: f.end, implicit: f.implicit, reasking: f.reasking}
				if g.x.Ignore == nil {
					g.x.Ignore = body
				}
				hb := lastBlock(h)
				f.reasking[h] = true
				covers := g.block(hb, g.blockCont(nil, hb), sh)
				delete(f.reasking, h)
				if !covers {
					return false
				}
			}
		}
		return true
	case "with_statement":
		if f.withHeadCP(s, sh) {
			return true
		}
		bk, bsh := f.withBody(s, k, sh)
		if f.implicit && !bk.next && !f.startsCP(s.ChildByFieldName("body"), bsh) {
			return false // the context manager may suppress an exception of the body's own
		}
		return f.block(s.ChildByFieldName("body"), bk, bsh)
	case "match_statement":
		if f.exprCP(s.ChildByFieldName("subject"), sh) {
			return true
		}
		return f.matchCases(s, k, sh)
	}
	// expression statements, assert, del, print, exec, type aliases, errors
	return f.exprCP(s, sh) || k.next
}

// ifBranches: paths after the condition of branch i (-1: the if itself)
// evaluated false or true; o says which of them passed a checkpoint in
// evaluating it. Clause i of the alternatives is an elif or else.
func (f *flow) ifBranches(s *pyast.Node, from int, k cont, sh bool, o outcome) bool {
	var alts []*pyast.Node
	for _, c := range pyast.NamedChildren(s) {
		if c.Kind() == "elif_clause" || c.Kind() == "else_clause" {
			alts = append(alts, c)
		}
	}
	// rest(i): paths reaching alternative i (after every earlier condition was false).
	var rest func(i int) bool
	rest = func(i int) bool {
		if i >= len(alts) {
			return k.next
		}
		a := alts[i]
		if a.Kind() == "else_clause" {
			return f.block(a.ChildByFieldName("body"), k, sh)
		}
		cond := a.ChildByFieldName("condition")
		if f.exprCP(cond, sh) {
			return true
		}
		oi := f.condOutcome(cond, sh, nil)
		return (oi.onTrue || f.block(a.ChildByFieldName("consequence"), k, sh)) && (oi.onFalse || rest(i+1))
	}
	if from < 0 {
		return (o.onTrue || f.block(s.ChildByFieldName("consequence"), k, sh)) && (o.onFalse || rest(0))
	}
	return (o.onTrue || f.block(alts[from].ChildByFieldName("consequence"), k, sh)) && (o.onFalse || rest(from+1))
}

// loopHead: paths from the head of a while or for loop (before the
// condition or the next item), given k after the loop. Paths that loop for
// ever never return, so going round again assumes the head covers (the
// greatest fixpoint, reached in one step for booleans).
func (f *flow) loopHead(s *pyast.Node, k cont, sh bool) bool {
	if f.asyncIterCP(s, sh) {
		return true
	}
	lk := f.loopBodyCont(s, true, k)
	return f.loopExit(s, k, sh) && f.block(s.ChildByFieldName("body"), lk, sh)
}

// iterHead: paths from the start of another round of a loop (the while
// condition is evaluated again; a for loop's iterable is not).
func (f *flow) iterHead(s *pyast.Node, k cont, sh bool) bool {
	if s.Kind() == "while_statement" && f.exprCP(s.ChildByFieldName("condition"), sh) {
		return true
	}
	return f.loopHead(s, k, sh)
}

// loopBodyCont is the continuation of a loop body whose head covers head.
func (f *flow) loopBodyCont(s *pyast.Node, head bool, k cont) cont {
	return cont{next: head, cont: head, brk: k.next, ret: k.ret, exc: k.exc, caught: k.caught}
}

// loopExit: paths leaving the loop because the condition is false or the
// items are exhausted: through the else clause, then k.
func (f *flow) loopExit(s *pyast.Node, k cont, sh bool) bool {
	if s.Kind() == "while_statement" && constTruth(f.m, s.ChildByFieldName("condition")) == truthTrue {
		return true // no such path
	}
	if e := s.ChildByFieldName("alternative"); e != nil {
		return f.block(e.ChildByFieldName("body"), k, sh)
	}
	return k.next
}

// asyncIterCP: "async for" over an iterator whose every step checkpoints
// (iterate_in_threadpool, an anyio AsyncFile: IterOffload; each step is
// an offload, and an offload starts with a checkpoint; a project class's
// __anext__: stepsProjectIter).
func (f *flow) asyncIterCP(s *pyast.Node, sh bool) bool {
	if sh || s.Kind() != "for_statement" || !pyast.HasChildKind(s, "async") || f.ignored(s) {
		return false
	}
	if _, ok := IterOffload(f.m, s.ChildByFieldName("right")); ok {
		return true
	}
	return f.stepsProjectIter(s)
}

// stepsProjectIter: an async for over instances of project classes whose
// __anext__ checkpoints on every path, the one that ends the loop by
// raising StopAsyncIteration included (the resolver gives the __anext__
// among the iterable's callees).
func (f *flow) stepsProjectIter(s *pyast.Node) bool {
	if f.a == nil || f.a.resolver == nil {
		return false
	}
	steps := named(f.a.resolver.Callees(f.m, pyast.Unparen(s.ChildByFieldName("right"))), "__anext__")
	for _, c := range steps {
		if !f.a.AlwaysCheckpoints(c.Module, c.Func) || f.a.RaisesUnchecked(c.Module, c.Func) {
			return false
		}
	}
	return len(steps) > 0
}

// tryParts are the continuations of the parts of a try statement.
type tryParts struct {
	body, handler, orelse cont
}

// tryConts computes the continuations of a try statement's body, handlers
// and else clause. Raises in the body go to the handlers (any of them: types
// are not matched) or propagate; other implicit exceptions are not
// followed here (under f.implicit the try statement's case asks that the
// body's exception continuation, body.exc, be covered unless the body
// startsCP).
func (f *flow) tryConts(s *pyast.Node, k cont, sh bool) tryParts {
	var handlers []*pyast.Node
	var orelse, final *pyast.Node
	for _, c := range pyast.NamedChildren(s) {
		switch c.Kind() {
		case "except_clause", "except_group_clause":
			handlers = append(handlers, c)
		case "else_clause":
			orelse = c.ChildByFieldName("body")
		case "finally_clause":
			final = lastBlock(c)
		}
	}
	F := func(x bool) bool { return x }
	if final != nil {
		ft := f.block(final, k.with(true), sh)
		ff := f.block(final, k.with(false), sh)
		F = func(x bool) bool {
			if x {
				return ft
			}
			return ff
		}
	}
	out := cont{next: F(k.next), brk: F(k.brk), cont: F(k.cont), ret: F(k.ret), exc: F(k.exc), caught: F(k.caught)}
	// An exception raised in the body goes to any of the handlers (caught);
	// unless one catches everything, it may also go on past the try (exc).
	caught := len(handlers) > 0
	for _, h := range handlers {
		caught = caught && f.block(lastBlock(h), out, sh)
	}
	exc, caught := caught, caught
	if !catchesAll(f.m, handlers) {
		exc = exc && out.exc
	}
	if len(handlers) == 0 {
		exc, caught = out.exc, out.exc
	}
	next := out.next
	if orelse != nil {
		next = f.block(orelse, out, sh)
	}
	return tryParts{
		body:    cont{next: next, brk: out.brk, cont: out.cont, ret: out.ret, exc: exc, caught: caught},
		handler: out,
		orelse:  out,
	}
}

// finallyCont is the continuation of a finally block: after it, whatever was
// pending goes on.
func (f *flow) finallyCont(s *pyast.Node, k cont) cont {
	next := k.next
	var hasRet, hasBrk, hasCont bool
	pyast.WalkCode(s, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "return_statement":
			hasRet = true
		case "break_statement":
			hasBrk = true
		case "continue_statement":
			hasCont = true
		case "finally_clause":
			return false
		}
		return true
	})
	if hasRet {
		next = next && k.ret
	}
	if hasBrk {
		next = next && k.brk
	}
	if hasCont {
		next = next && k.cont
	}
	return k.with(next)
}

func lastBlock(n *pyast.Node) *pyast.Node {
	var b *pyast.Node
	for _, c := range pyast.NamedChildren(n) {
		if c.Kind() == "block" {
			b = c
		}
	}
	return b
}

// withHeadCP: the with items' expressions checkpoint, or an async with
// enters a known offload (contextmanager_in_threadpool).
func (f *flow) withHeadCP(s *pyast.Node, sh bool) bool {
	if sh {
		return false
	}
	clause := pyast.WithClause(s)
	if f.exprCP(clause, false) {
		return true
	}
	return pyast.HasChildKind(s, "async") && !f.ignored(s) && (f.entersOffload(s) || f.entersIO(s) || f.entersProjectCM(s))
}

// entersProjectCM: an async with item that calls a project
// @contextlib.asynccontextmanager function whose code before its yield
// checkpoints on every path (EntersCheckpoint), or whose context manager is
// an instance of a project class whose __aenter__ checkpoints on every path
// (AlwaysCheckpoints; the resolver gives the __aenter__ the with statement
// runs among the item's callees).
func (f *flow) entersProjectCM(s *pyast.Node) bool {
	if f.a == nil || f.a.resolver == nil {
		return false
	}
	for _, e := range pyast.WithItems(s) {
		cs := f.a.resolver.Callees(f.m, e)
		if enters := named(cs, "__aenter__"); len(enters) > 0 {
			if f.a.allAlways(enters) {
				return true
			}
			continue
		}
		if e.Kind() == "call" && len(cs) > 0 && f.a.allEnter(cs) {
			return true
		}
	}
	return false
}

// named returns the callees of cs with the given name (a with item's
// __aenter__ or __aexit__ among its constructor's __init__).
func named(cs []Callee, name string) []Callee {
	var out []Callee
	for _, c := range cs {
		if c.Func != nil && c.Func.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// allAlways reports whether each of cs checkpoints on every path.
func (a *Analyzer) allAlways(cs []Callee) bool {
	for _, c := range cs {
		if !a.AlwaysCheckpoints(c.Module, c.Func) {
			return false
		}
	}
	return true
}

// allEnter reports whether entering each of cs checkpoints.
func (a *Analyzer) allEnter(cs []Callee) bool {
	for _, c := range cs {
		if c.Func == nil || !a.EntersCheckpoint(c.Module, c.Func) {
			return false
		}
	}
	return true
}

// entersIO: an async with item whose entry does I/O (a request of an
// aiohttp session, httpx's client.stream, aiosqlite.connect, ...).
func (f *flow) entersIO(s *pyast.Node) bool {
	for _, e := range pyast.WithItems(s) {
		if f.a.enteringIO(f.m, e) {
			return true
		}
	}
	return false
}

func (f *flow) entersOffload(s *pyast.Node) bool {
	for _, e := range pyast.WithItems(s) {
		if info, ok := Offload(f.m, e); ok && info.Enters {
			return true
		}
	}
	return false
}

// withBody returns the continuation and shielding of a with body. Leaving an
// async with of contextmanager_in_threadpool runs an offload, which starts
// with a checkpoint.
func (f *flow) withBody(s *pyast.Node, k cont, sh bool) (cont, bool) {
	if !sh && pyast.HasChildKind(s, "async") && !f.ignored(s) && (f.entersOffload(s) || f.leavesFile(s) || f.leavesProjectCM(s)) {
		k = allCovered
	}
	return k, sh || f.shields(s)
}

// leavesProjectCM: leaving an async with awaits the __aexit__ of a project
// class's instance; a checkpoint when each __aexit__ the item can run
// checkpoints on every path (AlwaysCheckpoints).
func (f *flow) leavesProjectCM(s *pyast.Node) bool {
	if f.a == nil || f.a.resolver == nil {
		return false
	}
	for _, e := range pyast.WithItems(s) {
		if exits := named(f.a.resolver.Callees(f.m, e), "__aexit__"); len(exits) > 0 && f.a.allAlways(exits) {
			return true
		}
	}
	return false
}

// leavesFile: leaving an async with of a thread-backed file closes it in a
// worker thread (LeavingFile), which starts with a checkpoint (anyio) or
// ends with one (trio), or awaits run_in_executor (aiofiles).
func (f *flow) leavesFile(s *pyast.Node) bool {
	for _, e := range pyast.WithItems(s) {
		if _, ok := LeavingFile(f.m, e); ok {
			return true
		}
	}
	return false
}

// UncoveredLeaving returns the exits of fn that some path reaches with no
// real checkpoint from the exit of with statement s (the wait of a
// thread-backed file's close): after s when its body can fall off its end,
// and where s's return, raise, break and continue statements go (the exit
// runs before each).
func (a *Analyzer) UncoveredLeaving(m *pyast.Module, fn *pyast.Function, s *pyast.Node) Exits {
	body := s.ChildByFieldName("body")
	jumps := bodyJumps(body)
	return a.uncovered(m, fn, Extra{}, func(f *flow) bool {
		k := f.stmtCont(fn, s)
		return (k.next || jumps.endsInJump) && (k.ret || !jumps.ret) && (k.exc || !jumps.raise) &&
			(k.brk || !jumps.brk) && (k.cont || !jumps.cont)
	})
}

// jumpSet says which jumps out of a block its statements make.
type jumpSet struct {
	ret, raise, brk, cont bool
	endsInJump            bool // the last statement returns or raises
}

// bodyJumps finds the return and raise statements of block b (not in
// nested functions) and its break / continue statements that leave it
// (not those of a loop inside it).
func bodyJumps(b *pyast.Node) jumpSet {
	var j jumpSet
	if b == nil {
		return j
	}
	if n := b.NamedChildCount(); n > 0 {
		switch b.NamedChild(n - 1).Kind() {
		case "return_statement", "raise_statement":
			j.endsInJump = true
		}
	}
	loops := 0
	var visit func(n *pyast.Node)
	visit = func(n *pyast.Node) {
		if pyast.IsFunctionBoundary(n) {
			return
		}
		switch n.Kind() {
		case "return_statement":
			j.ret = true
		case "raise_statement":
			j.raise = true
		case "break_statement":
			j.brk = j.brk || loops == 0
		case "continue_statement":
			j.cont = j.cont || loops == 0
		case "for_statement", "while_statement":
			loops++
			defer func() { loops-- }()
		}
		for _, c := range pyast.NamedChildren(n) {
			visit(c)
		}
	}
	visit(b)
	return j
}

// shields reports whether a with statement enters a shielded cancel scope.
func (f *flow) shields(s *pyast.Node) bool {
	for _, e := range pyast.WithItems(s) {
		if ShieldedScope(f.m, e) {
			return true
		}
	}
	return false
}

// shieldFactories make cancel scopes that take shield=.
var shieldFactories = map[string]bool{
	"anyio.CancelScope":   true,
	"anyio.move_on_after": true,
	"anyio.fail_after":    true,
	"trio.CancelScope":    true,
	"trio.move_on_after":  true,
	"trio.fail_after":     true,
}

// ShieldedScope reports whether a with item expression is a shielded cancel
// scope: anyio.CancelScope(shield=True), move_on_after(t, shield=True),
// fail_after(t, shield=True) (also trio's), written inline or assigned to a
// variable first.
func ShieldedScope(m *pyast.Module, e *pyast.Node) bool {
	e = pyast.Unparen(e)
	if e == nil {
		return false
	}
	if e.Kind() == "identifier" {
		for _, b := range m.ScopeAt(e).Lookup(m.TextView(e)) {
			if v := b.Value(); b.Kind == pyast.BindValue && v != nil && v.Kind() == "call" && ShieldedScope(m, v) {
				return true
			}
		}
		return false
	}
	if e.Kind() != "call" {
		return false
	}
	shielded := false
	for _, q := range m.Resolve(pyast.Callee(e)) {
		if shieldFactories[q] {
			shielded = true
		}
	}
	if !shielded {
		return false
	}
	kw := pyast.KeywordArg(m, e, "shield")
	return kw != nil && !falsy(m, kw.ChildByFieldName("value"))
}

// matchCases: paths after the subject of a match statement.
func (f *flow) matchCases(s *pyast.Node, k cont, sh bool) bool {
	ok, total := true, false
	for _, c := range matchCaseClauses(s) {
		ok = ok && f.block(c.ChildByFieldName("consequence"), k, sh)
		if irrefutable(f.m, c) {
			total = true
		}
	}
	return ok && (total || k.next)
}

func matchCaseClauses(s *pyast.Node) []*pyast.Node {
	var out []*pyast.Node
	pyast.Walk(s.ChildByFieldName("body"), func(n *pyast.Node) bool {
		if n.Kind() == "case_clause" {
			out = append(out, n)
			return false
		}
		return n.Kind() == "block"
	})
	return out
}

// irrefutable: "case _:" or "case name:" without a guard.
func irrefutable(m *pyast.Module, c *pyast.Node) bool {
	if c.ChildByFieldName("guard") != nil {
		return false
	}
	var pats []*pyast.Node
	for _, p := range pyast.NamedChildren(c) {
		if p.Kind() == "case_pattern" {
			pats = append(pats, p)
		}
	}
	if len(pats) != 1 {
		return false
	}
	p := pats[0]
	if m.Text(p) == "_" {
		return true
	}
	return p.NamedChildCount() == 1 && p.NamedChild(0).Kind() == "identifier"
}

// conditionalKinds are expressions whose parts may not run.
func skipExpr(n *pyast.Node) bool {
	switch n.Kind() {
	case "lambda", "function_definition", "class_definition", "list_comprehension", "set_comprehension",
		"dictionary_comprehension", "generator_expression", "block":
		return true
	}
	return false
}

// exprCP reports whether evaluating n always awaits a checkpoint: an await
// that is not inside a lambda, a comprehension, the right operand of
// and/or, or a branch of a conditional expression.
func (f *flow) exprCP(n *pyast.Node, sh bool) bool {
	if n == nil || sh {
		return false
	}
	return f.findCP(n, func(*pyast.Node) bool { return true })
}

// findCP walks the unconditional parts of n for a checkpoint await that
// accept admits.
func (f *flow) findCP(n *pyast.Node, accept func(await *pyast.Node) bool) bool {
	found := false
	var visit func(n *pyast.Node, top bool)
	visit = func(n *pyast.Node, top bool) {
		if found || n == nil || (!top && skipExpr(n)) {
			return
		}
		f.step()
		switch n.Kind() {
		case "boolean_operator":
			visit(n.ChildByFieldName("left"), false)
			return
		case "conditional_expression":
			if n.NamedChildCount() >= 2 {
				visit(n.NamedChild(1), false)
			}
			return
		case "await":
			if !f.ignored(n) && accept(n) && f.a.IsCheckpointAwait(f.m, n) {
				found = true
				return
			}
		case "yield":
			if f.x.Yield && !f.ignored(n) && accept(n) {
				found = true
				return
			}
		}
		for _, c := range pyast.NamedChildren(n) {
			visit(c, false)
		}
	}
	visit(n, true)
	return found
}

// laterCP reports whether evaluating expr (which contains node) always awaits a
// checkpoint after node: an await that starts after node ends, or the await of
// a call whose arguments contain node.
func (f *flow) laterCP(expr, node *pyast.Node, sh bool) bool {
	if expr == nil || sh {
		return false
	}
	return f.findCP(expr, func(a *pyast.Node) bool {
		if a.StartByte() >= node.EndByte() {
			return true
		}
		if a.Kind() == "yield" {
			return within(node, a) // yield await x: it yields what node gave
		}
		call := pyast.Unparen(a.NamedChild(0))
		if call == nil || call.Kind() != "call" {
			return false
		}
		args := call.ChildByFieldName("arguments")
		return args != nil && within(node, args)
	})
}

// ownExpr returns the part of statement s that runs before its bodies: the
// whole of a simple statement, the condition of an if or while, the iterable
// of a for, the items of a with, the subject of a match; nil for the rest.
func ownExpr(s *pyast.Node) *pyast.Node {
	switch s.Kind() {
	case "if_statement", "while_statement":
		return s.ChildByFieldName("condition")
	case "for_statement":
		return s.ChildByFieldName("right")
	case "with_statement":
		return pyast.WithClause(s)
	case "match_statement":
		return s.ChildByFieldName("subject")
	case "try_statement", "function_definition", "class_definition", "decorated_definition", "comment":
		return nil
	}
	return s
}

// helperRaises reports whether evaluating n awaits a project async function
// that can raise another exception than the cancellation with no checkpoint
// before it (RaisesUnchecked), in any part of n (the await may be
// conditional: it is a path); with after set, only an await that starts
// after it ends or whose call's arguments contain it (as laterCP).
func (f *flow) helperRaises(n, after *pyast.Node) bool {
	if n == nil || f.a == nil || f.a.resolver == nil {
		return false
	}
	found := false
	pyast.WalkCode(n, func(c *pyast.Node) bool {
		if found {
			return false
		}
		if c.Kind() != "await" || f.ignored(c) {
			return true
		}
		call := pyast.Unparen(c.NamedChild(0))
		if call == nil || call.Kind() != "call" {
			return true
		}
		if after != nil && c.StartByte() < after.EndByte() {
			args := call.ChildByFieldName("arguments")
			if args == nil || !within(after, args) {
				return true
			}
		}
		f.step()
		for _, c := range f.a.resolver.Callees(f.m, call) { // any of them may be the one run
			if c.Func != nil && c.Func.Async() && f.a.RaisesUnchecked(c.Module, c.Func) {
				found = true
			}
		}
		return !found
	})
	return found
}

func within(n, outer *pyast.Node) bool {
	return n.StartByte() >= outer.StartByte() && n.EndByte() <= outer.EndByte()
}

// ---- the way up from a node to the function's end ----

// stmtOf returns the statement containing n: the nearest ancestor (or n)
// whose parent is a block, module or match body (case clauses count as
// statements of the match).
func stmtOf(n *pyast.Node) *pyast.Node {
	for c := n; c != nil; c = c.Parent() {
		p := c.Parent()
		if p == nil {
			return c
		}
		if c.Kind() == "case_clause" {
			continue
		}
		if p.Kind() == "block" || p.Kind() == "module" {
			return c
		}
	}
	return nil
}

func (f *flow) coveredAfter(fn *pyast.Function, node *pyast.Node) bool {
	s := stmtOf(node)
	if s == nil {
		return false
	}
	sh := f.shieldedAt(s)
	if s.Equals(node) {
		return f.afterStmt(fn, s)
	}
	k := f.stmtCont(fn, s)
	if !k.exc && f.helperRaises(ownExpr(s), node) {
		return false
	}
	switch s.Kind() {
	case "return_statement":
		return f.laterCP(s, node, sh) || k.ret
	case "raise_statement":
		return Reraises(f.m, s) || f.laterCP(s, node, sh) || f.raiseCont(s, k)
	case "if_statement":
		if cond := s.ChildByFieldName("condition"); within(node, cond) {
			return f.laterCP(cond, node, sh) || f.ifBranches(s, -1, k, sh, f.condOutcome(cond, sh, node))
		}
		i := 0
		for _, c := range pyast.NamedChildren(s) {
			if c.Kind() != "elif_clause" && c.Kind() != "else_clause" {
				continue
			}
			if cond := c.ChildByFieldName("condition"); cond != nil && within(node, cond) {
				return f.laterCP(cond, node, sh) || f.ifBranches(s, i, k, sh, f.condOutcome(cond, sh, node))
			}
			i++
		}
	case "while_statement":
		if cond := s.ChildByFieldName("condition"); within(node, cond) {
			head := f.iterHead(s, k, sh)
			return f.laterCP(cond, node, sh) ||
				(f.loopExit(s, k, sh) && f.block(s.ChildByFieldName("body"), f.loopBodyCont(s, head, k), sh))
		}
	case "for_statement":
		if r := s.ChildByFieldName("right"); within(node, r) {
			return f.laterCP(r, node, sh) || f.loopHead(s, k, sh)
		}
	case "with_statement":
		if c := pyast.WithClause(s); c != nil && within(node, c) {
			if f.laterCP(c, node, sh) {
				return true
			}
			bk, bsh := f.withBody(s, k, sh)
			return f.block(s.ChildByFieldName("body"), bk, bsh)
		}
	case "match_statement":
		if subj := s.ChildByFieldName("subject"); subj != nil && within(node, subj) {
			return f.laterCP(subj, node, sh) || f.matchCases(s, k, sh)
		}
	case "expression_statement", "assert_statement", "delete_statement", "print_statement", "exec_statement", "type_alias_statement":
		return f.laterCP(s, node, sh) || k.next
	}
	return f.afterStmt(fn, s)
}

// afterStmt: paths from the normal end of statement s.
func (f *flow) afterStmt(fn *pyast.Function, s *pyast.Node) bool {
	return f.stmtCont(fn, s).next
}

// stmtCont is the continuation of statement s: its next is what runs after
// s, the rest what its enclosing block's break/continue/return/raise reach.
func (f *flow) stmtCont(fn *pyast.Function, s *pyast.Node) cont {
	b := s.Parent()
	if b == nil || b.Kind() == "module" {
		return f.bodyEnd()
	}
	bk := f.blockCont(fn, b)
	sh := f.shieldedAt(s)
	sibs := pyast.NamedChildren(b)
	for i, c := range sibs {
		if c.Equals(s) {
			return bk.with(f.seq(sibs, i+1, bk, sh))
		}
	}
	return bk
}

// blockCont is the continuation of block b: what runs when its statements
// fall off the end, break, continue, return or raise.
func (f *flow) blockCont(fn *pyast.Function, b *pyast.Node) cont {
	p := b.Parent()
	if p == nil {
		return f.bodyEnd()
	}
	switch p.Kind() {
	case "function_definition", "module", "class_definition":
		return f.bodyEnd()
	case "case_clause":
		m := pyast.Ancestor(p, "match_statement")
		if m == nil {
			return f.bodyEnd()
		}
		return f.stmtCont(fn, m)
	case "elif_clause":
		return f.stmtCont(fn, p.Parent())
	case "else_clause":
		gp := p.Parent()
		switch gp.Kind() {
		case "while_statement", "for_statement":
			return f.stmtCont(fn, gp)
		case "try_statement":
			return f.tryConts(gp, f.stmtCont(fn, gp), f.shieldedAt(gp)).orelse
		}
		return f.stmtCont(fn, gp)
	case "if_statement":
		return f.stmtCont(fn, p)
	case "while_statement", "for_statement":
		k := f.stmtCont(fn, p)
		return f.loopBodyCont(p, f.iterHead(p, k, f.shieldedAt(p)), k)
	case "try_statement":
		return f.tryConts(p, f.stmtCont(fn, p), f.shieldedAt(p)).body
	case "except_clause", "except_group_clause":
		t := p.Parent()
		return f.tryConts(t, f.stmtCont(fn, t), f.shieldedAt(t)).handler
	case "finally_clause":
		t := p.Parent()
		return f.finallyCont(t, f.stmtCont(fn, t))
	case "with_statement":
		k, _ := f.withBody(p, f.stmtCont(fn, p), f.shieldedAt(p))
		return k
	}
	return f.stmtCont(fn, stmtOf(p))
}

// Shielded reports whether n runs inside a shielded cancel scope (a with
// statement of its own function, see ShieldedScope): a checkpoint there does
// not observe cancellation.
func Shielded(m *pyast.Module, n *pyast.Node) bool {
	return (&flow{m: m}).shieldedAt(n)
}

// shieldedAt reports whether n runs inside a shielded cancel scope of its
// function (checkpoints there do not observe cancellation).
func (f *flow) shieldedAt(n *pyast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda", "class_definition":
			return false
		case "with_statement":
			if body := p.ChildByFieldName("body"); body != nil && within(n, body) && f.shields(p) {
				return true
			}
		}
	}
	return false
}

// cancelTypes are the exception classes that catch a cancellation.
var cancelTypes = map[string]bool{
	"asyncio.CancelledError": true, "asyncio.exceptions.CancelledError": true,
	"concurrent.futures.CancelledError": true, "BaseException": true, "builtins.BaseException": true,
	"trio.Cancelled": true, "anyio.get_cancelled_exc_class": true,
}

// catchesCancel reports whether an except clause can catch the
// cancellation: a bare except, or a type (or tuple) naming one of
// cancelTypes or anyio.get_cancelled_exc_class().
func catchesCancel(m *pyast.Module, clause *pyast.Node) bool {
	var typ *pyast.Node
	for _, c := range pyast.NamedChildren(clause) {
		if c.Kind() == "block" || c.Kind() == "comment" {
			continue
		}
		typ = c
		break
	}
	if typ == nil {
		return true // bare except:
	}
	if typ.Kind() == "as_pattern" && typ.NamedChildCount() > 0 {
		typ = typ.NamedChild(0)
	}
	found := false
	pyast.Walk(typ, func(n *pyast.Node) bool {
		if found {
			return false
		}
		switch n.Kind() {
		case "identifier", "attribute":
			for _, q := range m.Resolve(n) {
				if cancelTypes[q] {
					found = true
				}
			}
			return false
		}
		return true
	})
	return found
}
