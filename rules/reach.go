package rules

// How handler-reachable code relates to the end of a request: the walk up
// awaited call sites to the handler, and reporting a finding in a reachable
// function with the handlers that reach it.

import (
	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// requestEnds answers whether leaving a function (a normal return, or a
// raise of another exception than the cancellation: checkpoint.Exits) can
// end a request with no checkpoint in between, and how. It walks up the
// call sites of the project (handlers.Index.Callers) and memoises the
// answer per function and way out; MCP101, MCP102 and MCP104 use it for
// what follows an offload, a shielded scope or a swallowed cancellation.
type requestEnds struct {
	pass *Pass
	// checkpoints decides whether a checkpoint follows a node on every path
	// to the end of its function.
	checkpoints *checkpoint.Analyzer
	state       map[exitOf]walkState
	// handlerFuncs are the functions of the handlers (isHandler).
	handlerFuncs map[*pyast.Function]bool
	// yields memoises whether a project coroutine can suspend (suspends).
	yields map[*pyast.Function]yieldState
	// consumed memoises consumersCheckpoint.
	consumed map[*pyast.Function]bool
}

// exitOf is a function left one way (one of checkpoint.ExitReturn,
// ExitRaise).
type exitOf struct {
	f   *pyast.Function
	way checkpoint.Exits
}

// walkState is where the walk is with an exitOf: not seen, being visited,
// or its answer, the best end of a request it leads to (ordered: a normal
// return is the better answer, as it is the message findings had before
// raises counted).
type walkState int8

const (
	unseen walkState = iota
	visiting
	endsNone   // no request end
	endsRaise  // a request end by raising only
	endsReturn // a request end by a normal return
)

// exits is the answer as endsRequest gives it.
func (s walkState) exits() checkpoint.Exits {
	switch s {
	case endsReturn:
		return checkpoint.ExitReturn
	case endsRaise:
		return checkpoint.ExitRaise
	}
	return 0
}

func newRequestEnds(p *Pass) *requestEnds {
	var r checkpoint.Resolver
	if p.Handlers != nil {
		r = p.Handlers // not a typed nil in the interface
	}
	a := checkpoint.New(r)
	a.SetBudget(p.FunctionSteps)
	p.analyzers = append(p.analyzers, a)
	return &requestEnds{pass: p, checkpoints: a, state: map[exitOf]walkState{}}
}

// endsRequest reports whether leaving f by one of the ways in exits can end
// a request with no checkpoint in between, and how the handler ends then
// (0 for no): ExitReturn when some chain makes it return normally, else
// ExitRaise when one makes it raise another exception (so that a finding
// keeps its "returns normally" whenever that is one of the ways). Leaving f
// ends a request when f is a handler (or runs as one:
// a wrapper applied to a handler, or a function defined inside such a
// wrapper, when nothing calls it), whose return or raise is the request's
// end, or some awaited call site of f leads on, with no checkpoint, to a
// way out of a caller that itself ends a request. After a normal return of
// f the caller goes on after the call (checkpoint.Analyzer.UncoveredAfter);
// an exception f raises comes out of the call and goes through the
// caller's except clauses (UncoveredRaising): a caller that catches it and
// returns leaves by returning, one that does not leaves by raising. A
// function reported as unreached counts as its own handler. Recursion counts
// as not ending a request.
//
// One walk up the callers finds the best end of each way out (walkState),
// and stops at a normal return. It keeps its own stack: a hostile chain of
// awaited calls is as long as the file makes it (issue 14's 70k-function
// chain), and Go's stack would grow with it. It visits the callers in
// order, depth first, and memoises as a recursive walk would.
func (e *requestEnds) endsRequest(f *pyast.Function, exits checkpoint.Exits) checkpoint.Exits {
	best := endsNone
	for _, way := range [...]checkpoint.Exits{checkpoint.ExitReturn, checkpoint.ExitRaise} {
		if exits&way != 0 {
			if best = max(best, e.ends(exitOf{f, way})); best == endsReturn {
				break
			}
		}
	}
	return best.exits()
}

// ends is endsRequest's answer for one way out of one function.
//
// The ways out and the ways out of callers they lead to form a graph that
// can have cycles (a awaits b, b awaits a): an answer is final only for a
// whole strongly connected component, whose members reach the same ends.
// The walk numbers the frames it enters and keeps their lowest reachable
// number (Tarjan's lowlink); a frame that is the root of its component
// gives its answer to every member, and only then are they memoised. A
// member met again while its component is open counts for nothing in the
// frame that meets it: its ends reach the root all the same. A frame that
// finds a normal return stops there (nothing is better), which leaves its
// component's answer right: every member reaches that return.
func (e *requestEnds) ends(x exitOf) walkState {
	switch s := e.state[x]; s {
	case visiting:
		return endsNone
	case unseen:
	default:
		return s
	}
	type frame struct {
		x       exitOf
		callers []handlers.CallSite
		next    int
		pending []exitOf // the ways out of the caller of callers[next-1] still to visit
		best    walkState
		index   int // the order the frame was entered in
		low     int // the lowest index of an open member it reaches
	}
	var stack []frame
	index := map[exitOf]int{} // of the open ways out (state visiting)
	var open []exitOf         // the ways out entered and not yet memoised, in order
	entered := 0
	// enter starts y's walk; done when its answer needs no caller.
	enter := func(y exitOf) (done bool) {
		callers, ends := e.start(y.f)
		if ends {
			e.state[y] = endsRaise // a handler ending the way it is left
			if y.way == checkpoint.ExitReturn {
				e.state[y] = endsReturn
			}
			return true
		}
		e.state[y] = visiting
		n := entered
		entered++
		index[y] = n
		open = append(open, y)
		stack = append(stack, frame{x: y, callers: callers, best: endsNone, index: n, low: n})
		return false
	}
	if enter(x) {
		return e.state[x]
	}
	popped, poppedLow := unseen, 0 // the answer and lowlink of the frame popped last
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if popped != unseen {
			top.best = max(top.best, popped)
			top.low = min(top.low, poppedLow)
			popped = unseen
		}
		pushed := false
		for top.best != endsReturn && (len(top.pending) > 0 || top.next < len(top.callers)) {
			if len(top.pending) == 0 {
				cs := top.callers[top.next]
				top.next++
				top.pending = e.callerExits(top.x, cs)
				continue
			}
			y := top.pending[0]
			top.pending = top.pending[1:]
			switch s := e.state[y]; s {
			case visiting:
				top.low = min(top.low, index[y]) // same component: its root answers for both
				continue
			case unseen:
				if !enter(y) {
					pushed = true // walk y's callers first (top is stale now)
				}
			}
			if pushed {
				break
			}
			top.best = max(top.best, e.state[y])
		}
		if pushed {
			continue
		}
		popped, poppedLow = top.best, top.low
		if top.low == top.index {
			// The root of its component: the members are the ways out
			// opened since, and they all reach what it reaches.
			i := len(open) - 1
			for open[i] != top.x {
				i--
			}
			for _, y := range open[i:] {
				e.state[y] = top.best
				delete(index, y)
			}
			open = open[:i]
		}
		stack = stack[:len(stack)-1]
	}
	return e.state[x]
}

// callerExits returns the ways out of the caller at call site cs that a
// callee leaving as x says reaches with no checkpoint: none when the call is
// not awaited by the caller's own task.
func (e *requestEnds) callerExits(x exitOf, cs handlers.CallSite) []exitOf {
	way := x.way
	m, g := cs.Caller.Module, cs.Caller.Func
	stepped := steppedIter(cs)
	if !stepped && !awaitedCall(m, cs.Call) && !awaitedEntry(cs) {
		return nil
	}
	at := cs.Call
	if cs.Callee.Func.Name == "__aexit__" && awaitedEntry(cs) {
		// __aexit__ returns where the with statement ends, past its body
		// and past leaving it (which awaits this very __aexit__).
		at = pyast.WithStatementOf(cs.Call)
	}
	var exits checkpoint.Exits
	if way == checkpoint.ExitReturn || stepped && cs.Callee.Func.Name == "__anext__" {
		// A step's return goes on into the loop's body, or out of the
		// loop when the items are exhausted (an __anext__ raising
		// StopAsyncIteration, an async generator's end).
		exits = e.checkpoints.UncoveredAfter(m, g, at, e.extra(g))
	}
	if way != checkpoint.ExitReturn {
		exits |= e.checkpoints.UncoveredRaising(m, g, at)
	}
	var out []exitOf
	for _, w := range [...]checkpoint.Exits{checkpoint.ExitReturn, checkpoint.ExitRaise} {
		if exits&w != 0 {
			out = append(out, exitOf{g, w})
		}
	}
	return out
}

// endWords says how a handler ends after a cancellation it did not
// observe, for messages: "returns normally", or "raises another exception"
// when the chain found ends it by raising (mcp 1.x then sends an error
// response, a second response all the same).
func endWords(how checkpoint.Exits) string {
	if how == checkpoint.ExitRaise {
		return "raises another exception"
	}
	return "returns normally"
}

// start answers for f what needs none of its callers' answers: whether f
// ends a request by itself (a handler, a wrapper that runs as one, an
// unreached function, or no handler index at all), else its call sites.
func (e *requestEnds) start(f *pyast.Function) ([]handlers.CallSite, bool) {
	hx := e.pass.Handlers
	if hx == nil {
		return nil, true // no handler index (a check of one module): every function is its own handler
	}
	if hx.Unreached(f.Qual) {
		return nil, true // reported as a note on request: treat it as its own handler
	}
	callers := hx.Callers(f)
	// The handlers that reach f matter only when f is one of them or when
	// nothing calls f (a wrapper running as the handler): ReachedFrom walks
	// every function above f, once per f, which a long chain makes
	// quadratic.
	if len(callers) == 0 || e.isHandler(f) {
		for _, h := range hx.ReachedFrom(f) {
			if h.Func == f {
				return nil, true
			}
			if len(callers) == 0 && runsAsWrapper(f, h) {
				return nil, true
			}
		}
	}
	return callers, false
}

// isHandler reports whether f is the function of some handler.
func (e *requestEnds) isHandler(f *pyast.Function) bool {
	if e.handlerFuncs == nil {
		e.handlerFuncs = map[*pyast.Function]bool{}
		for _, h := range e.pass.Handlers.Handlers {
			e.handlerFuncs[h.Func] = true
		}
	}
	return e.handlerFuncs[f]
}

// runsAsWrapper reports whether f is a wrapper applied to h, or is defined
// inside one (the closure a decorator returns).
func runsAsWrapper(f *pyast.Function, h *handlers.Handler) bool {
	for g := f; g != nil; g = g.Parent {
		for _, w := range h.Wrappers {
			if w == g {
				return true
			}
		}
	}
	return false
}

// awaitedEntry reports whether call site cs is an async with statement
// awaiting its context manager's __aenter__ or __aexit__ (the site is the
// with item's expression): the caller goes on where it does.
func awaitedEntry(cs handlers.CallSite) bool {
	switch cs.Callee.Func.Name {
	case "__aenter__", "__aexit__":
	default:
		return false
	}
	s := pyast.WithStatementOf(cs.Call)
	return s != nil && pyast.HasChildKind(s, "async")
}

// extra is the adjustment of a coverage question about f: its yields are
// checkpoints when f is an async generator whose consumers checkpoint
// (consumersCheckpoint).
func (e *requestEnds) extra(f *pyast.Function) checkpoint.Extra {
	return checkpoint.Extra{Yield: e.consumersCheckpoint(f)}
}

// consumersCheckpoint reports whether f is an async generator that only
// async for statements step (steppedIter), each with a body from whose
// start every path of the consumer passes a real checkpoint: a yield of f
// hands its item to such a body, so the paths of f through a yield are
// covered there.
func (e *requestEnds) consumersCheckpoint(f *pyast.Function) bool {
	if v, ok := e.consumed[f]; ok {
		return v
	}
	v := false
	if hx := e.pass.Handlers; hx != nil && f.Async() && f.Body != nil && pyast.Yields(f.Body) {
		callers := hx.Callers(f)
		v = len(callers) > 0
		for _, cs := range callers {
			if !v {
				break
			}
			s := pyast.ForStatementOf(cs.Call)
			v = cs.Caller.Func != nil && steppedIter(cs) &&
				e.checkpoints.CoveredFrom(cs.Caller.Module, cs.Caller.Func, s.ChildByFieldName("body"), checkpoint.Extra{})
		}
	}
	if e.consumed == nil {
		e.consumed = map[*pyast.Function]bool{}
	}
	e.consumed[f] = v
	return v
}

// steppedIter reports whether call site cs is the iterable of an async for
// that runs the callee a step at a time in the caller's own task: the
// __anext__ of the iterated project instance, or an async generator
// function, called there or earlier with its generator object held in
// what the loop iterates (g = gen(); async for x in g): each step runs its
// body from one yield to the next, the last to its end.
func steppedIter(cs handlers.CallSite) bool {
	s := pyast.ForStatementOf(cs.Call)
	if s == nil || !pyast.HasChildKind(s, "async") {
		return false
	}
	f := cs.Callee.Func
	if f.Name == "__anext__" {
		return true
	}
	return f.Async() && f.Body != nil && pyast.Yields(f.Body)
}

// awaitedCall reports whether call is awaited by its caller's own task,
// directly, as an argument of an awaited call (asyncio.wait_for(helper(),
// 5)) or as the body of a lambda passed to one (await retry(lambda:
// helper())), so that its normal return continues the caller. A call inside a
// comprehension or generator, or passed to a function that runs it as a
// separate task and raises the caller's own cancellation whatever the task
// does (separateTask: asyncio.gather, shield, wait), is not.
func awaitedCall(m *pyast.Module, call *pyast.Node) bool {
	n := call
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "argument_list", "keyword_argument":
			n = p
			continue
		case "call":
			if n.Kind() == "argument_list" {
				if separateTask(m, p) {
					return false
				}
				n = p
				continue
			}
			return false
		case "await":
			return true
		case "lambda":
			// await run(lambda: helper()): the callee calls the lambda and
			// awaits the coroutine it returns (return await fn()), so
			// helper's normal return goes on where the awaited call does.
			if body := p.ChildByFieldName("body"); body != nil && body.Equals(n) {
				n = p
				continue
			}
		}
		return false
	}
	return false
}

// separateTasks run their coroutine arguments as tasks of their own. When the
// awaiting task is cancelled, gather cancels the children and raises the
// cancellation even if a child returned normally; shield and wait raise it at
// once.
var separateTasks = map[string]bool{
	"asyncio.gather": true, "asyncio.shield": true, "asyncio.wait": true,
	"asyncio.tasks.gather": true, "asyncio.tasks.shield": true, "asyncio.tasks.wait": true,
}

func separateTask(m *pyast.Module, call *pyast.Node) bool {
	callee := pyast.Callee(call)
	if callee == nil {
		return false
	}
	for _, q := range m.Resolve(callee) {
		if separateTasks[q] {
			return true
		}
	}
	return false
}

// reportIn reports a finding at loc inside handler-reachable function f:
// anchored to f, with the handlers that reach f as related locations.
func reportIn(p *Pass, f *pyast.Function, loc Location, msg string, fixes ...Fix) {
	d := Diagnostic{Location: loc, Message: msg, Related: p.HandlerRelated(f), Fixes: fixes}
	d.Anchor = f.Qual
	d.AnchorStart, d.AnchorEnd = int(f.Stmt.StartByte()), int(f.Stmt.EndByte())
	p.Report(d)
}
