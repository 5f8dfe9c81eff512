package rules

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// MCP104 finds handler-reachable code that catches the handler's own
// cancellation and does not re-raise it.
//
// Recognised:
//   - except clauses (and except* clauses) whose type is, or is a tuple
//     containing, asyncio.CancelledError (also asyncio.exceptions.),
//     anyio.get_cancelled_exc_class() (called in place or bound to a name
//     first), trio.Cancelled or BaseException, and bare except:, when the try
//     body awaits (await, async with, async for) and the except body contains
//     no re-raise: a bare raise, a raise of the caught name (or
//     name.with_traceback(...)), or a raise of a cancellation class.
//   - such except clauses that raise a different exception, on every path or
//     on only one: `if not await close(): raise OtherError from exc` next to
//     a bare raise. A raise guarded by a type check of the caught exception
//     that excludes the cancellation is not one: inside `if isinstance(exc,
//     Exception):` (any class that is no cancellation class), inside `if not
//     isinstance(exc, CancelledError):`, in the else / a later elif of `if
//     isinstance(exc, CancelledError):`, or after `if isinstance(exc,
//     CancelledError): raise`; `type(exc) is T` counts like isinstance.
//   - with contextlib.suppress(...) of those around an await.
//   - return anywhere in finally:, and break / continue that leave the
//     finally: block, when the try body awaits.
//
// A swallow (not a different exception, which propagates whatever follows)
// is reported only when it can make a handler end without the
// cancellation: some path from the end of the except body, the suppress
// block or the jump leaves the function, by returning or by raising another
// exception, with no real checkpoint (checkpoint.UncoveredFrom: anyio
// re-delivers the cancellation at the next await that really yields, SPEC
// section 1; a re-raise of the cancellation is no such way out, so a swallow
// nested in an except or finally that then re-raises is fine, while one
// followed by `raise OtherError(...)`, here or in a caller, is not; awaits
// in the try body the
// swallow belongs to do not count, since going round a loop into it raises
// into the same except; `if flag: raise CancelledError` counts when the
// except body set `flag = True`), and leaving the function that way can
// end a request (requestEnds, as for MCP101: it is a handler, or a chain of
// awaited call sites with no checkpoint after them leads to one; a callee's
// exception goes through the caller's except clauses). A
// coroutine passed to asyncio.gather, shield or wait, or scheduled with
// create_task, ensure_future, a TaskGroup's create_task or an anyio task
// group's start_soon / start, runs as a task of its own: gather raises the
// awaiting task's cancellation even when a child returned normally, shield
// and wait raise it at once, and anyio re-delivers it at the task group's
// exit. A re-raise anywhere in the except body counts for a swallow, even
// on only one path (isinstance dispatch is common).
//
// Not reported: except Exception (CancelledError is a BaseException), classes
// of the project that only share a name (names are resolved), catches inside
// finally:, and a try whose awaits only await a task already known done
// (inside `if t.done():` / `if t.cancelled():`, or `for t in done` after
// `done, pending = await asyncio.wait(...)`). Not recognised: a flag returned
// to the caller, which raises the cancellation itself.
//
// A real checkpoint in the except body itself counts like one after it: a
// different exception raised only after an unshielded await of real I/O in
// the except body (except BaseException: await client.aclose(); raise
// ToolError(...)) is not reported, since anyio re-delivers the cancellation
// at that await and it propagates (SPEC section 1); under a shield it does
// not count. The same holds for a branch on what an awaited project function
// returned (`if not await browser.close(): raise Other(...) from exc`, also
// `closed = await browser.close()` right before `if not closed:`): the
// branch follows a checkpoint when every path of the callee that can give a
// result taking it passes a real checkpoint first (checkpoint.ReturnsChecked:
// its returns of constants and of plainly assigned locals; any other
// returned value, a sync callee, or a test of something else is unknown, and
// the raise is reported as before).
var mcp104 = Register(&Rule{
	Code:      "MCP104",
	Name:      "cancellation-swallowed",
	Kind:      CodeRule,
	Reach:     true,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "mcp-1x", "crash", "correctness"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.MCP1() },
	Guarded:   true,
	Doc: Doc{
		Summary: "Handler-reachable code catches the request's cancellation and does not re-raise it",
		WhatItDoes: "Flags, in code a request handler can run, an `except` clause that can catch the handler's own " +
			"cancellation (`asyncio.CancelledError`, `anyio.get_cancelled_exc_class()`, `trio.Cancelled`, " +
			"`BaseException`, a bare `except:`, a tuple or `except*` naming one of them) around an `await` that can " +
			"suspend (not one of a project coroutine that itself awaits nothing that can: no cancellation arrives inside it), whose body " +
			"does not re-raise it or raises a different exception on some path (unless a type check keeps the " +
			"cancellation out of that path), `contextlib.suppress()` of those around an `await`, and `return` / " +
			"`break` / `continue` in a `finally:` block whose `try` awaits. A swallow is reported only when the " +
			"handler can then return normally or raise another exception: not when a real checkpoint follows (anyio delivers the cancellation " +
			"again there; also inside an awaited project function whose result decides the branch, when it gives that result only after one), not when an outer `except` or `finally` re-raises, not when a flag set in the except body " +
			"later re-raises a cancellation, and not in code that runs as a separate task (`asyncio.gather`, " +
			"`create_task`, task groups).",
		WhyIsThisBad: "When a client sends `notifications/cancelled`, mcp 1.x cancels the handler and at once answers " +
			"the request with a \"Request cancelled\" error. If the handler swallows the cancellation and returns " +
			"normally, the SDK responds a second time, hits `assert not self._completed, \"Request already responded " +
			"to\"`, and the AssertionError takes the whole server down (a stdio server exits with code 1). Raising a " +
			"*different* exception instead is no better: the SDK turns it into an error response and responds twice. " +
			"A `return` in `finally:` discards the propagating cancellation the same way.",
		Example: "@mcp.tool()\nasync def fetch(url: str) -> str:\n    try:\n        return await client.get(url)\n" +
			"    except asyncio.CancelledError:\n        return \"cancelled\"\n",
		UseInstead: "@mcp.tool()\nasync def fetch(url: str) -> str:\n    try:\n        return await client.get(url)\n" +
			"    except asyncio.CancelledError:\n        log.info(\"fetch cancelled\")\n        raise\n",
		FixSafety: "Adding `await anyio.lowlevel.checkpoint_if_cancelled()` as the last statement of the `except` body " +
			"(before a final `return`, `break` or `continue`), right before each `raise` of another exception, or right " +
			"after a `contextlib.suppress(...)` block, is safe: it raises the cancellation again only when the request was " +
			"cancelled, and does nothing otherwise (measured with a cancelling client on mcp 1.29.0 and fastmcp 3.4.7 " +
			"for every catching form). It is not offered when the body can leave before its end, or inside a " +
			"shielded scope. Adding a bare `raise` at the end of the `except` body is unsafe: every exception the " +
			"clause catches (all of them for `BaseException` or a bare `except:`) now propagates, so the code after " +
			"the `try` no longer runs for them. For jumps in `finally:` the fix is advice only: the right rewrite " +
			"depends on what the code meant to ignore.",
		References: []string{
			"https://anyio.readthedocs.io/en/stable/cancellation.html#finalization",
			"https://docs.python.org/3/library/asyncio-task.html#task-cancellation",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.30.0/src/mcp/shared/session.py",
		},
	},
	Run: runMCP104,
})

func runMCP104(p *Pass) {
	ends := newRequestEnds(p)
	for _, ref := range p.Handlers.ReachableFuncs() {
		checkSwallowed(ends, ref.Module, ref.Func)
	}
}

// checkSwallowed reports MCP104 findings in the body of f; ends decides
// whether a normal return of f can end a request unchecked.
func checkSwallowed(ends *requestEnds, m *pyast.Module, f *pyast.Function) {
	if f.Body == nil {
		return
	}
	pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "try_statement":
			swallowInTry(ends, m, f, n)
		case "with_statement":
			swallowInSuppress(ends, m, f, n)
		}
		return true
	})
}

// endsAfterSwallow reports how a swallowed cancellation can end a handler
// (0: it cannot): some path from where the code goes on (from, a block or a
// statement; after, a statement whose end) leaves f, by returning or by
// raising another exception, with no real checkpoint (anyio re-delivers the
// cancellation at the next one), and leaving f that way can end a request
// (requestEnds: f is a handler, or some chain of awaited call sites with no
// checkpoint after them leads to one; a coroutine run as another task does
// not). The answer is the way the handler ends (endWords).
func (e *requestEnds) endsAfterSwallow(m *pyast.Module, f *pyast.Function, from, after *pyast.Node, x checkpoint.Extra) checkpoint.Exits {
	exits := checkpoint.AnyExit
	if from != nil {
		exits &= e.checkpoints.UncoveredFrom(m, f, from, x)
	}
	if after != nil {
		exits &= e.checkpoints.UncoveredAfter(m, f, after, x)
	}
	if exits == 0 {
		return 0
	}
	return e.endsRequest(f, exits)
}

func swallowInTry(ends *requestEnds, m *pyast.Module, f *pyast.Function, try *pyast.Node) {
	p := ends.pass
	body := try.ChildByFieldName("body")
	if !ends.suspends(m, body) {
		return
	}
	inFinally := inFinallyOf(try, f)
	// An except clause after one that catches the cancellation never sees
	// it: `except asyncio.CancelledError: raise` then `except BaseException`
	// (the earlier clause, if it swallows, is reported itself).
	shadowed := false
	for _, c := range pyast.NamedChildren(try) {
		switch c.Kind() {
		case "except_clause", "except_group_clause":
			if shadowed {
				continue
			}
			shadowed = catchesAsyncioCancel(m, c)
			if inFinally || awaitsOnlyDoneTasks(m, f, try, body) {
				continue
			}
			what, ok := catchesCancellation(m, c)
			if !ok {
				continue
			}
			blk := exceptBody(c)
			if blk == nil {
				continue
			}
			loc := SpanLocation(m.Path, m.Lines, int(c.StartByte()), int(c.StartByte())+len("except"))
			if v := c.ChildByFieldName("value"); v != nil {
				loc = SpanLocation(m.Path, m.Lines, int(c.StartByte()), int(v.EndByte()))
			}
			reraises := reraisesCancel(m, c, blk)
			if rs := replacingRaises(m, c, blk); len(rs) > 0 && !inNestedHandler(rs, blk) &&
				ends.checkpoints.CoveredFrom(m, f, blk, checkpoint.Extra{Ignore: body, Fail: isOneOf(rs)}) {
				// An unshielded real checkpoint in the except body before
				// every raise (and every normal return) re-delivers the
				// cancellation there: it propagates, the other exception
				// is never raised.
				continue
			}
			if r := replacingRaise(m, c, blk); r != nil {
				// A different exception propagates whatever the callers do:
				// mcp 1.x turns it into a second response.
				other := raisedName(m, r)
				var fixes []Fix
				if fx, ok := raiseCheckpointFix(p, m, f, blk, replacingRaises(m, c, blk)); ok {
					fixes = append(fixes, fx)
				}
				if reraises {
					msg := fmt.Sprintf("%s raises %s instead of the cancellation on one path: it catches the handler's cancellation, and that path does not re-raise it; mcp 1.x turns the exception into a second response to the cancelled request and crashes", what, other)
					advice := Fix{Message: fmt.Sprintf("re-raise the cancellation on that path too: raise %s only when the caught exception is not the cancellation (an isinstance check), or re-raise the caught exception", other), Applicability: DisplayOnly}
					reportIn(p, f, loc, msg, append(fixes, advice)...)
					continue
				}
				msg := fmt.Sprintf("%s replaces the handler's cancellation with %s: it catches the cancellation and raises %s instead; mcp 1.x turns it into a second response to the cancelled request and crashes", what, other, other)
				reportIn(p, f, loc, msg, append(fixes, reraiseFix(m, blk))...)
				continue
			}
			if reraises {
				continue
			}
			how := ends.endsAfterSwallow(m, f, blk, nil, checkpoint.Extra{Ignore: body, Stop: deferredReraise(m, blk)})
			if how == 0 {
				continue
			}
			msg := fmt.Sprintf("%s swallows the handler's cancellation: it catches the cancellation and does not re-raise it; after a client's cancel the handler %s and mcp 1.x responds twice and crashes", what, endWords(how))
			var fixes []Fix
			if fx, ok := exceptCheckpointFix(p, m, f, blk); ok {
				fixes = append(fixes, fx)
			}
			reportIn(p, f, loc, msg, append(fixes, reraiseFix(m, blk))...)
		case "finally_clause":
			swallowInFinally(ends, m, f, c)
		}
	}
}

// inNestedHandler reports whether one of stmts is inside an except clause
// nested in blk: the flow analysis reaches handlers only from explicit
// raises, so a raise there (after an await that failed) is not judged.
func inNestedHandler(stmts []*pyast.Node, blk *pyast.Node) bool {
	for _, s := range stmts {
		for a := s.Parent(); a != nil && !a.Equals(blk); a = a.Parent() {
			if a.Kind() == "except_clause" || a.Kind() == "except_group_clause" {
				return true
			}
		}
	}
	return false
}

// isOneOf reports whether a statement is one of stmts.
func isOneOf(stmts []*pyast.Node) func(*pyast.Node) bool {
	return func(s *pyast.Node) bool {
		for _, x := range stmts {
			if x.Equals(s) {
				return true
			}
		}
		return false
	}
}

// deferredReraise recognises a cancellation re-raised later through a flag:
// the except body sets `flag = True` (a name or attribute), and a later
// `if flag:` statement whose body ends by raising a cancellation class
// re-raises it. The statement counts as a checkpoint on the paths from the
// except body (checkpoint.Extra.Stop).
func deferredReraise(m *pyast.Module, blk *pyast.Node) func(*pyast.Node) bool {
	flags := map[string]bool{}
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		if n.Kind() != "assignment" {
			return true
		}
		left, right := pyast.Unparen(n.ChildByFieldName("left")), pyast.Unparen(n.ChildByFieldName("right"))
		if left != nil && right != nil && right.Kind() == "true" && (left.Kind() == "identifier" || left.Kind() == "attribute") {
			flags[m.Text(left)] = true
		}
		return true
	})
	if len(flags) == 0 {
		return nil
	}
	return func(s *pyast.Node) bool {
		if s.Kind() != "if_statement" {
			return false
		}
		cond := pyast.Unparen(s.ChildByFieldName("condition"))
		if cond == nil || !flags[m.Text(cond)] {
			return false
		}
		stmts := blockStmts(s.ChildByFieldName("consequence"))
		if len(stmts) == 0 || stmts[len(stmts)-1].Kind() != "raise_statement" {
			return false
		}
		r := stmts[len(stmts)-1]
		if r.NamedChildCount() == 0 {
			return false
		}
		e := pyast.Unparen(r.NamedChild(0))
		if e.Kind() == "call" && !nameIs(m, pyast.Callee(e), "anyio.get_cancelled_exc_class") {
			e = pyast.Callee(e)
		}
		return raisesCancelClass(m, e)
	}
}

// swallowInFinally reports jumps out of a finally: block, which discard a
// propagating cancellation.
func swallowInFinally(ends *requestEnds, m *pyast.Module, f *pyast.Function, fin *pyast.Node) {
	body := fin.Parent().ChildByFieldName("body")
	pyast.WalkCode(fin, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "return_statement":
		case "break_statement", "continue_statement":
			if loopBelow(n, fin) {
				return false
			}
		default:
			return true
		}
		how := ends.endsAfterSwallow(m, f, n, nil, checkpoint.Extra{Ignore: body})
		if how == 0 {
			return false
		}
		word := strings.TrimSuffix(n.Kind(), "_statement")
		msg := fmt.Sprintf("%s in finally: discards a propagating cancellation: the handler %s after a client's cancel and mcp 1.x responds twice and crashes", word, endWords(how))
		advice := Fix{Message: fmt.Sprintf("move the %s out of the finally: block (after the try statement) so a cancellation propagates", word), Applicability: DisplayOnly}
		reportIn(ends.pass, f, NodeLocation(m, n), msg, advice)
		return false
	})
}

// loopBelow reports whether a loop encloses n below fin.
func loopBelow(n, fin *pyast.Node) bool {
	for a := n.Parent(); a != nil && a.Id() != fin.Id(); a = a.Parent() {
		switch a.Kind() {
		case "for_statement", "while_statement":
			return true
		}
	}
	return false
}

func swallowInSuppress(ends *requestEnds, m *pyast.Module, f *pyast.Function, with *pyast.Node) {
	body := with.ChildByFieldName("body")
	if !ends.suspends(m, body) || inFinallyOf(with, f) {
		return
	}
	for _, item := range withItems(with) {
		call := pyast.Unparen(item.expr)
		if call.Kind() != "call" || !nameIs(m, pyast.Callee(call), "contextlib.suppress") {
			continue
		}
		pos, _ := m.Args(call)
		for _, a := range pos {
			if what, ok := cancellationType(m, a); ok {
				how := ends.endsAfterSwallow(m, f, nil, with, checkpoint.Extra{Ignore: body})
				if how == 0 {
					break
				}
				msg := fmt.Sprintf("contextlib.suppress(%s) swallows the handler's cancellation: after a client's cancel the handler %s and mcp 1.x responds twice and crashes", what, endWords(how))
				advice := Fix{Message: "suppress only what you mean to ignore (Exception or narrower), or use try/except with a bare raise for the cancellation", Applicability: DisplayOnly}
				var fixes []Fix
				if fx, ok := suppressCheckpointFix(ends.pass, m, f, with); ok {
					fixes = append(fixes, fx)
				}
				reportIn(ends.pass, f, NodeLocation(m, call), msg, append(fixes, advice)...)
				break
			}
		}
	}
}

// suspends reports whether code under n in module m (not in nested
// functions) can suspend its task, where a cancellation is delivered: an
// async with or async for, or an await, except an await of a call of a
// project coroutine that cannot suspend itself (an undecorated async def
// whose body awaits nothing that can: awaiting it runs it to its end without
// yielding to the event loop). What the call runs is unknown, or a library's:
// it can.
func (e *requestEnds) suspends(m *pyast.Module, n *pyast.Node) bool {
	found := false
	pyast.WalkCode(n, func(c *pyast.Node) bool {
		if found {
			return false
		}
		switch c.Kind() {
		case "await":
			if c.IsNamed() { // not the keyword inside it
				found = e.awaitSuspends(m, c)
			}
		case "with_statement", "for_statement":
			if pyast.HasChildKind(c, "async") {
				found = true
			}
		case "yield":
			// The yield of an @asynccontextmanager: the async with body
			// runs there, and its cancellation is thrown in on exit.
			if fn := m.FuncAt(c); fn != nil && checkpoint.AsyncContextManager(m, fn) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (e *requestEnds) awaitSuspends(m *pyast.Module, await *pyast.Node) bool {
	call := pyast.Unparen(await.NamedChild(0))
	if call == nil || call.Kind() != "call" || e.pass.Handlers == nil {
		return true
	}
	cs := e.pass.Handlers.Callees(m, call)
	if len(cs) == 0 {
		return true
	}
	for _, c := range cs {
		if c.Module == nil || c.Func == nil || !c.Func.Async() || len(c.Func.Decorators) > 0 {
			return true
		}
	}
	// The call's arguments are evaluated first: an await among them counts.
	if args := call.ChildByFieldName("arguments"); args != nil && e.suspends(m, args) {
		return true
	}
	for _, c := range cs { // whichever of them runs
		if e.coroutineSuspends(c.Module, c.Func) {
			return true
		}
	}
	return false
}

// coroutineSuspends reports whether project coroutine fn of module cm can
// suspend before it returns, memoised.
func (e *requestEnds) coroutineSuspends(cm *pyast.Module, fn *pyast.Function) bool {
	switch e.yields[fn] {
	case yieldsYes, yieldsAsking: // asking: a recursive coroutine, taken to suspend
		return true
	case yieldsNo:
		return false
	}
	if e.yields == nil {
		e.yields = map[*pyast.Function]yieldState{}
	}
	e.yields[fn] = yieldsAsking
	y := e.suspends(cm, fn.Body)
	e.yields[fn] = yieldsNo
	if y {
		e.yields[fn] = yieldsYes
	}
	return y
}

// yieldState is what requestEnds.suspends knows of a project coroutine.
type yieldState uint8

const (
	yieldsUnknown yieldState = iota
	yieldsAsking
	yieldsYes
	yieldsNo
)

// inFinallyOf reports whether n is in a finally: block of function f.
func inFinallyOf(n *pyast.Node, f *pyast.Function) bool {
	for a := n.Parent(); a != nil && a.Id() != f.Node.Id(); a = a.Parent() {
		if a.Kind() == "finally_clause" {
			return true
		}
	}
	return false
}

// catchesCancellation reports whether an except clause can catch the
// cancellation, and describes the clause.
// catchesAsyncioCancel reports whether except clause c catches the
// cancellation as the server's asyncio backend raises it (a bare except,
// BaseException, asyncio.CancelledError, anyio.get_cancelled_exc_class(),
// in a tuple too), so that the clauses after it never see it.
func catchesAsyncioCancel(m *pyast.Module, c *pyast.Node) bool {
	typ, _ := exceptTarget(m, c)
	if typ == nil {
		return c.ChildByFieldName("value") == nil
	}
	_, ok := matchesClasses(m, typ, asyncioCancelClasses)
	return ok
}

func catchesCancellation(m *pyast.Module, c *pyast.Node) (string, bool) {
	typ, _ := exceptTarget(m, c)
	if typ == nil {
		if c.ChildByFieldName("value") == nil {
			return "bare except:", true
		}
		return "", false
	}
	what, ok := cancellationType(m, typ)
	if !ok {
		return "", false
	}
	kw := "except"
	if pyast.HasChildKind(c, "*") {
		kw = "except*"
	}
	return kw + " " + what, true
}

// awaitsOnlyDoneTasks reports whether every await in the try body awaits a
// name that is known to be a finished task: guarded by `if t.done():` (or
// cancelled()) or iterated from the done set of asyncio.wait.
func awaitsOnlyDoneTasks(m *pyast.Module, f *pyast.Function, try, body *pyast.Node) bool {
	all, seen := true, false
	pyast.WalkCode(body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "with_statement", "for_statement":
			if pyast.HasChildKind(n, "async") {
				all = false
			}
		case "await":
			if !n.IsNamed() { // the keyword inside an await expression
				break
			}
			seen = true
			x := pyast.Unparen(n.NamedChild(0))
			if x == nil || (x.Kind() != "identifier" && x.Kind() != "attribute") || !knownDone(m, f, try, m.Text(x)) {
				all = false
			}
		}
		return all
	})
	return all && seen
}

func knownDone(m *pyast.Module, f *pyast.Function, from *pyast.Node, task string) bool {
	if afterDoneLoop(m, f, from, task) {
		return true
	}
	for a := from.Parent(); a != nil && a.Id() != f.Node.Id(); a = a.Parent() {
		switch a.Kind() {
		case "if_statement":
			cond := pyast.Unparen(a.ChildByFieldName("condition"))
			if cond != nil && cond.Kind() == "call" {
				fn := pyast.Callee(cond)
				if fn.Kind() == "attribute" && m.Text(fn.ChildByFieldName("object")) == task {
					switch m.Text(fn.ChildByFieldName("attribute")) {
					case "done", "cancelled":
						return true
					}
				}
			}
		case "for_statement":
			left, right := a.ChildByFieldName("left"), pyast.Unparen(a.ChildByFieldName("right"))
			if left != nil && m.Text(left) == task && right != nil && right.Kind() == "identifier" && isDoneSet(m, f, m.Text(right)) {
				return true
			}
		}
	}
	return false
}

// afterDoneLoop reports whether statement s (or a statement enclosing it in
// f) comes after `while not task.done():` in the same block, a loop with no
// break of its own: it ends only once the task is done.
func afterDoneLoop(m *pyast.Module, f *pyast.Function, s *pyast.Node, task string) bool {
	for c := s; c != nil && c.Id() != f.Node.Id(); c = c.Parent() {
		p := c.Parent()
		if p == nil || p.Kind() != "block" {
			continue
		}
		var before []*pyast.Node
		for _, sib := range pyast.NamedChildren(p) {
			if sib.Equals(c) {
				break
			}
			before = append(before, sib)
		}
		for _, prev := range before {
			if prev.Kind() != "while_statement" {
				continue
			}
			cond := pyast.Unparen(prev.ChildByFieldName("condition"))
			if cond == nil || cond.Kind() != "not_operator" {
				continue
			}
			call := pyast.Unparen(cond.ChildByFieldName("argument"))
			if call == nil || call.Kind() != "call" {
				continue
			}
			fn := pyast.Callee(call)
			if fn.Kind() == "attribute" && m.Text(fn.ChildByFieldName("object")) == task &&
				m.Text(fn.ChildByFieldName("attribute")) == "done" && !breaksOut(prev.ChildByFieldName("body")) {
				return true
			}
		}
	}
	return false
}

// breaksOut reports whether a loop body has a break that leaves this loop
// (not one of a nested loop).
func breaksOut(body *pyast.Node) bool {
	found := false
	pyast.WalkCode(body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "break_statement":
			found = true
		case "for_statement", "while_statement":
			return false
		}
		return !found
	})
	return found
}

// isDoneSet reports whether name is bound in f as the first target of
// `name, pending = await asyncio.wait(...)`.
func isDoneSet(m *pyast.Module, f *pyast.Function, name string) bool {
	found := false
	pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
		if found || n.Kind() != "assignment" {
			return !found
		}
		left, right := n.ChildByFieldName("left"), pyast.Unparen(n.ChildByFieldName("right"))
		if left == nil || right == nil || right.Kind() != "await" {
			return true
		}
		if left.Kind() != "pattern_list" && left.Kind() != "tuple_pattern" || left.NamedChildCount() == 0 || m.Text(left.NamedChild(0)) != name {
			return true
		}
		call := pyast.Unparen(right.NamedChild(0))
		found = call != nil && call.Kind() == "call" && nameIs(m, pyast.Callee(call), "asyncio.wait")
		return !found
	})
	return found
}

// exceptCheckpointFix makes the except body end with
// `await anyio.lowlevel.checkpoint_if_cancelled()`, which raises the
// cancellation again only when the request was cancelled (SPEC section 1:
// measured to survive on mcp 1.29.0 and fastmcp 3.4.7 for every catching
// form). The checkpoint goes before a final return, break or continue,
// which would otherwise skip it, and replaces a lone pass (a raise of
// another exception is raiseCheckpointFix's). For the finding to be
// gone every path out of the body must pass the checkpoint, so there is no
// fix when the body can leave earlier (a return, break, continue or raise
// before its last statement), when a shielded scope holds the body (the
// checkpoint would not raise there), or when the body shares its line with
// the except.
func exceptCheckpointFix(p *Pass, m *pyast.Module, f *pyast.Function, blk *pyast.Node) (Fix, bool) {
	stmts := blockStmts(blk)
	if !f.Async() || len(stmts) == 0 || checkpoint.Shielded(m, blk) {
		return Fix{}, false
	}
	end := stmts[len(stmts)-1]
	jump := false
	switch end.Kind() {
	case "return_statement", "break_statement", "continue_statement", "raise_statement":
		jump = true
	}
	early := false
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		if early || n.Equals(end) && jump {
			return false
		}
		switch n.Kind() {
		case "return_statement", "raise_statement":
			early = true
		case "break_statement", "continue_statement":
			early = !loopBelow(n, blk)
		case "for_statement", "while_statement":
			// a break or continue in a loop of the body stays in the body
		}
		return !early
	})
	if early {
		return Fix{}, false
	}
	var edits []Edit
	var call string
	var ok bool
	switch {
	case jump:
		edits, call, ok = checkpointBefore(p, m, end)
	case len(stmts) == 1 && end.Kind() == "pass_statement":
		// the pass becomes the checkpoint (a comment after it stays)
		var imp *Edit
		if call, imp, ok = anyioRef(p, m, end, "lowlevel.checkpoint_if_cancelled"); ok {
			call += "()"
			if imp != nil {
				edits = append(edits, *imp)
			}
			edits = append(edits, Edit{Path: m.Path, Start: int(end.StartByte()), End: int(end.EndByte()), New: "await " + call})
		}
	default:
		edits, call, ok = checkpointAfter(p, m, end)
	}
	if !ok {
		return Fix{}, false
	}
	return Fix{
		Message:       "add `await " + call + "` at the end of the except body: it raises the cancellation again only when the request was cancelled",
		Applicability: Safe,
		Edits:         edits,
	}, true
}

// raiseCheckpointFix puts `await anyio.lowlevel.checkpoint_if_cancelled()`
// on its own line right before each raise of a different exception in an
// except body that caught the cancellation: a cancelled request raises the
// cancellation there (after the cleanup before it ran), any other keeps
// raising the other exception (SPEC section 1: a real checkpoint in the
// except body before the raise, measured to survive). No fix when a raise
// shares its line with other code, sits in a nested handler, or a shielded
// scope holds the body.
func raiseCheckpointFix(p *Pass, m *pyast.Module, f *pyast.Function, blk *pyast.Node, rs []*pyast.Node) (Fix, bool) {
	if !f.Async() || len(rs) == 0 || inNestedHandler(rs, blk) || checkpoint.Shielded(m, blk) {
		return Fix{}, false
	}
	var edits []Edit
	var call string
	for i, r := range rs {
		es, c, ok := checkpointBefore(p, m, r)
		if !ok {
			return Fix{}, false
		}
		if i > 0 && len(es) > 1 {
			es = es[1:] // the import once
		}
		edits, call = append(edits, es...), c
	}
	what := "raise " + raisedName(m, rs[0])
	if len(rs) > 1 {
		what = "each raise of another exception"
	}
	return Fix{
		Message:       "add `await " + call + "` before " + what + ": a cancelled request then raises its cancellation there, any other still raises as before",
		Applicability: Safe,
		Edits:         edits,
	}, true
}

// suppressCheckpointFix puts `await anyio.lowlevel.checkpoint_if_cancelled()`
// right after a contextlib.suppress(...) block, which raises a cancellation
// the block swallowed (and nothing otherwise).
func suppressCheckpointFix(p *Pass, m *pyast.Module, f *pyast.Function, with *pyast.Node) (Fix, bool) {
	if !f.Async() || checkpoint.Shielded(m, with) {
		return Fix{}, false
	}
	edits, call, ok := checkpointAfter(p, m, with)
	if !ok {
		return Fix{}, false
	}
	return Fix{
		Message:       "add `await " + call + "` right after the suppress block: it raises a swallowed cancellation again, and nothing else",
		Applicability: Safe,
		Edits:         edits,
	}, true
}

// reraiseFix adds a bare raise at the end of an except body.
func reraiseFix(m *pyast.Module, blk *pyast.Node) Fix {
	fix := Fix{Message: "re-raise the cancellation: add a bare `raise` at the end of the except body", Applicability: Unsafe}
	stmts := blockStmts(blk)
	if len(stmts) == 0 {
		return Fix{Message: fix.Message, Applicability: DisplayOnly}
	}
	last := stmts[len(stmts)-1]
	if len(stmts) == 1 && last.Kind() == "pass_statement" {
		fix.Edits = []Edit{{Path: m.Path, Start: int(last.StartByte()), End: int(last.EndByte()), New: "raise"}}
		return fix
	}
	indent, own := pystyle.LineIndent(m, stmts[0])
	switch last.Kind() {
	case "return_statement", "break_statement", "continue_statement", "raise_statement":
		// insert before the jump, which would otherwise skip the raise
		if ind, ok := pystyle.LineIndent(m, last); ok {
			fix.Edits = []Edit{{Path: m.Path, Start: int(last.StartByte()), End: int(last.StartByte()), New: "raise" + pystyle.Newline(m.Src) + ind}}
		} else {
			fix.Edits = []Edit{{Path: m.Path, Start: int(last.StartByte()), End: int(last.StartByte()), New: "raise; "}}
		}
		return fix
	}
	if !own { // except E: a(); b()
		fix.Edits = []Edit{{Path: m.Path, Start: int(last.EndByte()), End: int(last.EndByte()), New: "; raise"}}
		return fix
	}
	at := pystyle.LineEnd(m.Src, int(last.EndByte()))
	fix.Edits = []Edit{{Path: m.Path, Start: at, End: at, New: pystyle.Newline(m.Src) + indent + "raise"}}
	return fix
}
