package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// MCP101 finds awaits of non-cancellable offloads (package checkpoint lists
// them) in handler-reachable code that are not followed, on every path to the
// end of the handler, by a real checkpoint. The handler ends by returning or
// by raising another exception than the cancellation (checkpoint.Exits):
// after an unobserved cancel either is a second response.
//
// An offload at the end of a helper is followed up through its call sites
// (requestEnds, over handlers.Index.Callers): it is reported when some chain
// of awaited call sites, none followed by a checkpoint (after the call for a
// helper that returns, through the caller's except clauses for one that
// raises), reaches a handler, a
// wrapper applied to a handler (or a closure defined in one), or a function
// reached from no call site that is a handler's own. Not recognised:
// offloads scheduled as tasks (tg.start_soon, create_task), wrapped in
// gather, a coroutine object passed around before it is awaited in another
// function, and helpers reached only as callbacks. An offload awaited through
// asyncio.wait_for is a wait like a bare await (checkpoint.Waits): on Python
// 3.12+ wait_for awaits it in the same task.
var mcp101 = Register(&Rule{
	Code:      "MCP101",
	Name:      "uncancellable-thread-await",
	Kind:      CodeRule,
	Reach:     true,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "mcp-1x", "crash", "correctness", "threads"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.MCP1() },
	Guarded:   true,
	Doc: Doc{
		Summary: "A request handler waits for a worker thread that cannot observe the request's cancellation and returns normally after it",
		WhatItDoes: "Flags, in code a request handler can run, an `await` of work offloaded to a thread, process or " +
			"interpreter that ignores cancellation — `anyio.to_thread.run_sync` without `abandon_on_cancel=True` " +
			"(or its pre-4.1 name `cancellable=True`), `anyio.to_process.run_sync` without `cancellable=True`, " +
			"`anyio.to_interpreter.run_sync`, Starlette / FastAPI `run_in_threadpool`, `iterate_in_threadpool` and " +
			"`contextmanager_in_threadpool`, `asyncer.asyncify(f)(...)` without `abandon_on_cancel=True`, " +
			"`trio.to_thread.run_sync` without `abandon_on_cancel=True` (trio's default is `False` too), anyio's " +
			"thread-backed file API (`anyio.open_file`, the `AsyncFile` methods, `async for line in f` and leaving " +
			"`async with` of the file (its close; reported at the `async with`), the " +
			"`anyio.Path` methods that pass no `abandon_on_cancel` such as `read_text`, `write_bytes`, `mkdir`, " +
			"`unlink`, `open`, `walk`, and `anyio.TemporaryFile` / `mkstemp` and friends), trio's `Path` and file " +
			"objects, Starlette / FastAPI `UploadFile.read` / `write` / `seek` / `close`, and " +
			"`functools.partial` objects of those, through any import alias, also awaited through `asyncio.wait_for` " +
			"(on Python 3.12+ it awaits them in the same task, so the timeout does not make the wait cancellable) — when some path from it to the end of " +
			"the handler (a return, or a raise of another exception than the cancellation) passes no real checkpoint. `abandon_on_cancel=False` written out counts as missing. " +
			"Checkpoints are `anyio.lowlevel.checkpoint()`, `checkpoint_if_cancelled()`, `anyio.sleep`, " +
			"`asyncio.sleep`, a later offload, `ctx.info()` and the other Context log and progress helpers, " +
			"`session.send_*()`, well-known network I/O, and project async functions that checkpoint on every path. " +
			"An offload at the end of a helper is reported when a caller that returns right after it leads to a handler. " +
			"A method is known by its receiver's type: a constructor call (`anyio.Path(p)`), an annotation " +
			"(`p: anyio.Path`), an assignment or `async with` of a factory (`f = await anyio.open_file(p)`, " +
			"`async with await anyio.open_file(p) as f`), or a method that makes one (`p.joinpath(...)`, `p.open()`). " +
			"Not reported, because they hand the cancellation back at once: `asyncio.to_thread`, " +
			"`loop.run_in_executor`, aiofiles, `asgiref.sync.sync_to_async`, and the `anyio.Path` queries that " +
			"abandon their thread (`exists`, `stat`, `is_file`, `resolve`, `glob`, `iterdir` ...). The catalogue " +
			"of every such API, with the library source line that decides each, is docs/offloads.md.",
		WhyIsThisBad: "In mcp 1.x (1.12.3 to 1.30.0), when a client cancels a request the SDK cancels the handler and " +
			"at once answers with a \"Request cancelled\" error. A non-cancellable offload keeps waiting for its " +
			"worker and then returns its result as if nothing happened; if the handler then returns normally, the " +
			"SDK responds a second time, hits `assert not self._completed, \"Request already responded to\"`, and " +
			"the AssertionError takes the whole server down (a stdio server exits with code 1, and every later call " +
			"fails with \"Connection closed\"). Clients do cancel: a timeout in `ClientSession`, Claude Desktop after " +
			"about four minutes, a user interrupting Claude Code. anyio re-delivers the cancellation at the next real " +
			"checkpoint, so only a wait with no checkpoint after it is dangerous.",
		Example: "import anyio\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"files\")\n\n" +
			"@mcp.tool()\nasync def checksum(path: str) -> str:\n    return await anyio.to_thread.run_sync(hash_file, path)\n",
		UseInstead: "import anyio\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"files\")\n\n" +
			"@mcp.tool()\nasync def checksum(path: str) -> str:\n" +
			"    result = await anyio.to_thread.run_sync(hash_file, path)\n" +
			"    await anyio.lowlevel.checkpoint_if_cancelled()\n    return result\n",
		FixSafety: "Two fixes are offered. Inserting `await anyio.lowlevel.checkpoint_if_cancelled()` after the " +
			"statement (rewriting `return await ...` into an assignment, the checkpoint and a return, and adding " +
			"`import anyio` where needed) is safe: it only changes what a cancelled request does, which now raises " +
			"the cancellation the SDK expects. Passing `abandon_on_cancel=True` (`cancellable=True` for " +
			"`to_process` and for projects pinned to anyio < 4.1) is unsafe: the request returns at once on cancel " +
			"but the worker thread keeps running, and its side effects and result are abandoned. It is not offered " +
			"inside a `with` block that holds a lock, semaphore or capacity limiter (leaving the block on the cancel " +
			"would release it while the thread still works under it), nor with `limiter=` (anyio gives the token back " +
			"when the wait is abandoned, so cancelled calls escape the bound); the finding says so instead. " +
			"`run_in_threadpool` and friends, the `anyio.Path`, `AsyncFile` and `UploadFile` methods and " +
			"`anyio.open_file` have no such keyword, so only the checkpoint fix is offered there.",
		References: []string{
			"https://anyio.readthedocs.io/en/stable/threads.html#cancelling-worker-threads",
			"https://anyio.readthedocs.io/en/stable/cancellation.html#checkpoints",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.30.0/src/mcp/shared/session.py",
			"https://github.com/mcplint/mcplint/blob/main/docs/offloads.md",
		},
	},
	Run: runMCP101,
})

func runMCP101(p *Pass) {
	ends := newRequestEnds(p)
	for _, r := range p.Handlers.ReachableFuncs() {
		if !r.Func.Async() {
			continue
		}
		for _, w := range checkpoint.Waits(r.Module, r.Func) {
			// In a shielded scope no keyword helps: MCP102 reports the shield.
			if w.Offload.Cancellable || checkpoint.Shielded(r.Module, w.At) {
				continue
			}
			exits := ends.checkpoints.UncoveredAfter(r.Module, r.Func, w.At, ends.extra(r.Func))
			if w.Offload.Leaves {
				exits = ends.checkpoints.UncoveredLeaving(r.Module, r.Func, w.At)
			}
			how := ends.endsRequest(r.Func, exits)
			if how == 0 {
				continue
			}
			reportWait(p, r.Module, r.Func, w, how)
		}
	}
}

// reportWait reports the unchecked wait w of function f.
func reportWait(p *Pass, m *pyast.Module, f *pyast.Function, w checkpoint.Wait, how checkpoint.Exits) {
	info := w.Offload
	what := "`" + shortOffloadName(info.Func) + "`"
	if info.Leaves {
		what += " (leaving the `async with`)" // the file's close
	}
	why := "waits for its worker after a cancel"
	switch {
	case info.KeywordArg != nil:
		why = fmt.Sprintf("with `%s` %s", escape.Cut(m.Text(info.KeywordArg), escape.CodeRunes), why)
	case info.Keyword != "":
		why = fmt.Sprintf("without `%s=True` %s", info.Keyword, why)
	}
	// The headline (rules.Headline) says what waits; the notes why it crashes.
	msg := fmt.Sprintf("%s %s: no checkpoint follows before the handler returns; on mcp 1.x the late result is a second response that crashes the server", what, why)
	if how == checkpoint.ExitRaise {
		msg = fmt.Sprintf("%s %s: no checkpoint follows before the handler raises another exception; on mcp 1.x that error is a second response that crashes the server", what, why)
	}
	var fixes []Fix
	if why := abandonHazard(m, f, info); why != "" {
		if info.Keyword != "" {
			fixes = append(fixes, Fix{
				Message:       fmt.Sprintf("%s=True is not offered: %s", info.Keyword, why),
				Applicability: DisplayOnly,
			})
		}
	} else if fx, ok := keywordFix(p, m, info); ok {
		fixes = append(fixes, fx)
	}
	if fx, ok := checkpointFix(p, m, f, w); ok {
		fixes = append(fixes, fx)
	}
	p.ReportNode(m, info.Call, msg, p.HandlerRelated(f), fixes...)
}

func shortOffloadName(q string) string {
	switch {
	case strings.HasPrefix(q, "anyio."), strings.HasPrefix(q, "trio."):
		return q
	case q == "asyncer.asyncify":
		return "asyncify(...)(...)"
	}
	parts := strings.Split(q, ".")
	if n := len(parts); n >= 2 && parts[n-2] != "" && unicode.IsUpper(rune(parts[n-2][0])) {
		return parts[n-2] + "." + parts[n-1] // a method: UploadFile.read
	}
	return parts[len(parts)-1]
}

// keywordFix passes abandon_on_cancel=True (or cancellable=True), or turns a
// written False into True.
func keywordFix(p *Pass, m *pyast.Module, info checkpoint.OffloadInfo) (Fix, bool) {
	if info.Keyword == "" {
		return Fix{}, false
	}
	if a := info.KeywordArg; a != nil {
		v := a.ChildByFieldName("value")
		name := m.Text(a.ChildByFieldName("name"))
		return Fix{
			Message:       fmt.Sprintf("pass %s=True (the worker keeps running after a cancel)", name),
			Applicability: Unsafe,
			Edits:         []Edit{{Path: m.Path, Start: int(v.StartByte()), End: int(v.EndByte()), New: "True"}},
		}, true
	}
	kw := info.Keyword
	if info.Func == "anyio.to_thread.run_sync" && p.Project != nil && p.Project.AnyioAdmits("0", "4.1.0") == deps.Yes {
		kw = "cancellable" // the only name anyio < 4.1 accepts; 4.x still takes it
	}
	args := info.KeywordCall.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "argument_list" {
		return Fix{}, false
	}
	e, last := appendArg(m, args, kw+"=True")
	if w, ok := wrapArgsEdit(p, m, args, kw+"=True", 0); ok {
		e = w // too long for the line: black's layout
	} else if comma := trailingComma(args, last); comma != nil {
		// f(a, b,) and one argument a line: keep the layout.
		e.Start, e.New = int(comma.EndByte()), " "+kw+"=True"
		if indent, own := pystyle.LineIndent(m, last); own {
			e.New = pystyle.BreakAt(m.Src, pystyle.LineEnd(m.Src, int(last.EndByte()))) + indent + kw + "=True,"
		}
		e.End = e.Start
	}
	return Fix{
		Message:       fmt.Sprintf("pass %s=True (the worker keeps running after a cancel)", kw),
		Applicability: Unsafe,
		Edits:         []Edit{e},
	}, true
}

// abandonHazard says why abandoning the worker would break the code around
// the offload, or "": the call passes limiter= (anyio gives the limiter's
// token back when the wait is abandoned, so cancelled calls escape the bound
// while their threads still run), or it sits in a with block of f that
// holds a lock, semaphore or capacity limiter (leaving the block on the
// cancel releases it while the thread still works under it).
func abandonHazard(m *pyast.Module, f *pyast.Function, info checkpoint.OffloadInfo) string {
	if c := info.KeywordCall; c != nil && c.Kind() == "call" && pyast.KeywordArg(m, c, "limiter") != nil {
		return "the call passes limiter=, and anyio releases the limiter's token when the wait is abandoned, so cancelled calls would escape the bound while their threads still run"
	}
	for a := info.Call.Parent(); a != nil && a.Id() != f.Node.Id(); a = a.Parent() {
		if a.Kind() != "with_statement" {
			continue
		}
		for _, it := range withItems(a) {
			if what := lockLike(m, it.expr); what != "" {
				return fmt.Sprintf("it runs inside `with %s` (%s): after a cancel the block would release it while the thread still works under it", escape.Cut(m.Text(it.expr), escape.CodeRunes), what)
			}
		}
	}
	return ""
}

// lockTypes are the lock, semaphore and limiter classes whose context
// managers guard the work inside them.
var lockTypes = map[string]string{
	"anyio.Lock": "a lock", "anyio.Semaphore": "a semaphore", "anyio.CapacityLimiter": "a capacity limiter",
	"anyio.Condition": "a condition's lock", "anyio.to_thread.current_default_thread_limiter": "a capacity limiter",
	"asyncio.Lock": "a lock", "asyncio.Semaphore": "a semaphore", "asyncio.BoundedSemaphore": "a semaphore",
	"asyncio.Condition": "a condition's lock", "threading.Lock": "a lock", "threading.RLock": "a lock",
	"threading.Semaphore": "a semaphore", "threading.BoundedSemaphore": "a semaphore", "threading.Condition": "a condition's lock",
	"trio.Lock": "a lock", "trio.StrictFIFOLock": "a lock", "trio.Semaphore": "a semaphore", "trio.CapacityLimiter": "a capacity limiter",
}

// lockLike says what lock a with item's expression is ("a lock"), or "":
// an object built by a lock class (resolved through its assignment or
// annotation), such a constructor called in place, or a name that says so
// (lock, mutex, semaphore, sem, limiter: self._lock, MIGRATION_LOCK,
// self._locks[key], lock_for(key)).
func lockLike(m *pyast.Module, e *pyast.Node) string {
	e = pyast.Unparen(e)
	if e == nil {
		return ""
	}
	var types []string
	switch e.Kind() {
	case "call":
		types = m.Resolve(pyast.Callee(e))
	case "identifier", "attribute":
		types = m.TypesOf(e)
	}
	for _, t := range types {
		if what := lockTypes[t]; what != "" {
			return what
		}
	}
	n := e
	for n.Kind() == "call" || n.Kind() == "subscript" || n.Kind() == "await" {
		switch n.Kind() {
		case "call":
			n = pyast.Unparen(pyast.Callee(n))
		case "subscript":
			n = pyast.Unparen(n.ChildByFieldName("value"))
		case "await":
			n = pyast.Unparen(n.NamedChild(0))
		}
		if n == nil {
			return ""
		}
	}
	last := ""
	switch n.Kind() {
	case "identifier":
		last = m.Text(n)
	case "attribute":
		last = m.Text(n.ChildByFieldName("attribute"))
	}
	var snake strings.Builder // migrationLock -> migration_lock
	for i, r := range last {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(last[i-1])) {
			snake.WriteByte('_')
		}
		snake.WriteRune(r)
	}
	words := strings.FieldsFunc(strings.ToLower(snake.String()), func(r rune) bool { return r == '_' })
	for _, w := range words {
		switch strings.TrimSuffix(w, "s") {
		case "lock", "rlock", "mutex":
			return "a lock"
		case "semaphore", "sem":
			return "a semaphore"
		case "limiter":
			return "a capacity limiter"
		}
	}
	return ""
}

// trailingComma returns the "," after the last argument, or nil (also when
// there is no argument).
func trailingComma(args, last *pyast.Node) *pyast.Node {
	if last == nil {
		return nil
	}
	for _, c := range pyast.Children(args) {
		if c.StartByte() >= last.EndByte() && c.Kind() == "," {
			return c
		}
	}
	return nil
}

// checkpointFix inserts `await anyio.lowlevel.checkpoint_if_cancelled()` on a
// new line after the statement of the wait, rewriting `return X` into
// `result = X`, the checkpoint and `return result`, and adds `import anyio`
// when no name binds anyio. No fix when the statement shares its line with
// other code, when the wait sits in the header of a compound statement, when
// an async for / with body can leave by return (or break / continue), or
// inside a shielded scope.
func checkpointFix(p *Pass, m *pyast.Module, f *pyast.Function, w checkpoint.Wait) (Fix, bool) {
	s := pyast.Statement(w.At)
	if s == nil || checkpoint.Shielded(m, s) {
		return Fix{}, false
	}
	var ret *pyast.Node
	switch s.Kind() {
	case "expression_statement", "assert_statement":
	case "return_statement":
		if s.NamedChildCount() == 0 {
			return Fix{}, false
		}
		ret = s.NamedChild(0)
	case "for_statement", "with_statement":
		if !s.Equals(w.At) || leavesEarly(s) {
			return Fix{}, false
		}
	default:
		return Fix{}, false
	}
	var then []string
	var name string
	if ret != nil {
		name = freeName(m, f, "result")
		then = []string{"return " + name}
	}
	edits, call, ok := checkpointAfter(p, m, s, then...)
	if !ok {
		return Fix{}, false
	}
	msg := "insert `await " + call + "` after the statement"
	if ret != nil {
		// return X -> result = X, before the checkpoint line.
		assign := Edit{Path: m.Path, Start: int(s.StartByte()), End: int(ret.StartByte()), New: name + " = "}
		edits = slices.Insert(edits, len(edits)-1, assign)
		msg = "assign the result, " + msg + ", then return it"
		// `result = ` is longer than `return `: wrap the call if the line
		// no longer fits.
		x := pyast.Unparen(ret)
		if x.Kind() == "await" && x.NamedChildCount() > 0 {
			x = pyast.Unparen(x.NamedChild(0))
		}
		if x.Kind() == "call" {
			args := x.ChildByFieldName("arguments")
			if args != nil && pystyle.LineStart(m.Src, int(args.StartByte())) == pystyle.LineStart(m.Src, int(s.StartByte())) {
				delta := len(assign.New) - (assign.End - assign.Start)
				if w, ok := wrapArgsEdit(p, m, args, "", delta); ok {
					edits = slices.Insert(edits, len(edits)-1, w)
				}
			}
		}
	}
	return Fix{Message: msg, Applicability: Safe, Edits: edits}, true
}

// leavesEarly: a return in the body of an async for / with (or a break or
// continue leaving a with) skips a checkpoint inserted after it.
func leavesEarly(s *pyast.Node) bool {
	found := false
	loops := 0
	var visit func(n *pyast.Node)
	visit = func(n *pyast.Node) {
		if found || pyast.IsFunctionBoundary(n) {
			return
		}
		switch n.Kind() {
		case "return_statement":
			found = true
			return
		case "break_statement", "continue_statement":
			if s.Kind() == "with_statement" && loops == 0 {
				found = true
				return
			}
		case "for_statement", "while_statement":
			loops++
			defer func() { loops-- }()
		}
		for _, c := range pyast.NamedChildren(n) {
			visit(c)
		}
	}
	visit(s.ChildByFieldName("body"))
	return found
}
