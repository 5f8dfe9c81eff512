package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// MCP101 finds awaits of non-cancellable offloads (package checkpoint lists
// them) in handler-reachable code that are not followed, on every path to the
// end of the handler, by a real checkpoint.
//
// An offload at the end of a helper is followed up through its call sites
// (handlers.Index.Callers): it is reported when some chain of awaited call
// sites, none followed by a checkpoint, reaches a handler, a wrapper applied
// to a handler (or a closure defined in one), or a function reached from no
// call site that is a handler's own. Not recognised: offloads scheduled as
// tasks (tg.start_soon, create_task), wrapped in asyncio.wait_for or gather, a
// coroutine object passed around before it is awaited in another function,
// and helpers reached only as callbacks.
var mcp101 = Register(&Rule{
	Code:      "MCP101",
	Name:      "uncancellable-thread-await",
	Kind:      CodeRule,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "mcp-1x", "crash", "correctness", "threads"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.MCP1() },
	Doc: Doc{
		Summary: "A request handler waits for a worker thread that cannot observe the request's cancellation and returns normally after it",
		WhatItDoes: "Flags, in code a request handler can run, an `await` of work offloaded to a thread, process or " +
			"interpreter that ignores cancellation — `anyio.to_thread.run_sync` without `abandon_on_cancel=True` " +
			"(or its pre-4.1 name `cancellable=True`), `anyio.to_process.run_sync` without `cancellable=True`, " +
			"`anyio.to_interpreter.run_sync`, Starlette / FastAPI `run_in_threadpool`, `iterate_in_threadpool` and " +
			"`contextmanager_in_threadpool`, `asyncer.asyncify(f)(...)` without `abandon_on_cancel=True`, and " +
			"`functools.partial` objects of those, through any import alias — when some path from it to the end of " +
			"the handler passes no real checkpoint. `abandon_on_cancel=False` written out counts as missing. " +
			"Checkpoints are `anyio.lowlevel.checkpoint()`, `checkpoint_if_cancelled()`, `anyio.sleep`, " +
			"`asyncio.sleep`, a later offload, `ctx.info()` and the other Context log and progress helpers, " +
			"`session.send_*()`, well-known network I/O, and project async functions that checkpoint on every path. " +
			"An offload at the end of a helper is reported when a caller that returns right after it leads to a handler.",
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
			"but the worker thread keeps running, and its side effects and result are abandoned. " +
			"`run_in_threadpool` and friends have no such keyword, so only the checkpoint fix is offered there.",
		References: []string{
			"https://anyio.readthedocs.io/en/stable/threads.html#cancelling-worker-threads",
			"https://anyio.readthedocs.io/en/stable/cancellation.html#checkpoints",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.30.0/src/mcp/shared/session.py",
		},
	},
	Run: runMCP101,
})

func runMCP101(p *Pass) {
	var res checkpoint.Resolver
	if p.Handlers != nil {
		res = p.Handlers
	}
	c := &mcp101Check{p: p, a: checkpoint.New(res), ends: map[*pyast.Function]int{}}
	for _, r := range p.Handlers.ReachableFuncs() {
		if !r.Func.Async {
			continue
		}
		for _, w := range checkpoint.Waits(r.Module, r.Func) {
			// In a shielded scope no keyword helps: MCP102 reports the shield.
			if w.Offload.Cancellable || checkpoint.Shielded(r.Module, w.At) || c.a.Covered(r.Module, r.Func, w.At) {
				continue
			}
			if !c.endsRequest(r.Func) {
				continue
			}
			c.report(r.Module, r.Func, w)
		}
	}
}

type mcp101Check struct {
	p    *Pass
	a    *checkpoint.Analyzer
	ends map[*pyast.Function]int // 1 visiting, 2 yes, 3 no
}

// endsRequest reports whether returning from f can end a request with no
// checkpoint in between: f is a handler (or runs as one: a wrapper applied to
// a handler, or a function defined inside such a wrapper, when nothing
// calls it), or some awaited call site of f is not followed by a checkpoint
// in a caller that itself ends a request.
func (c *mcp101Check) endsRequest(f *pyast.Function) bool {
	switch c.ends[f] {
	case 1, 3:
		return false
	case 2:
		return true
	}
	c.ends[f] = 1
	v := c.endsRequestUncached(f)
	c.ends[f] = 3
	if v {
		c.ends[f] = 2
	}
	return v
}

func (c *mcp101Check) endsRequestUncached(f *pyast.Function) bool {
	hx := c.p.Handlers
	if hx.Unreached(f.Qual) {
		return true // reported as a note on request: treat it as its own handler
	}
	callers := hx.Callers(f)
	for _, h := range hx.ReachedFrom(f) {
		if h.Func == f {
			return true
		}
		if len(callers) == 0 && runsAsWrapper(f, h) {
			return true
		}
	}
	for _, cs := range callers {
		if !awaitedCall(cs.Call) {
			continue
		}
		if c.a.Covered(cs.Caller.Module, cs.Caller.Func, cs.Call) {
			continue
		}
		if c.endsRequest(cs.Caller.Func) {
			return true
		}
	}
	return false
}

// runsAsWrapper: f is a wrapper applied to h, or defined inside one (the
// closure a decorator returns).
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

// awaitedCall: the call is awaited, directly or as an argument of an awaited
// call (asyncio.wait_for(helper(), 5)).
func awaitedCall(call *pyast.Node) bool {
	n := call
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "argument_list", "keyword_argument":
			n = p
			continue
		case "call":
			if n.Kind() == "argument_list" {
				n = p
				continue
			}
			return false
		case "await":
			return true
		}
		return false
	}
	return false
}

func (c *mcp101Check) report(m *pyast.Module, f *pyast.Function, w checkpoint.Wait) {
	info := w.Offload
	what := "`" + shortOffloadName(info.Func) + "`"
	why := "waits for its worker even after the request is cancelled"
	switch {
	case info.KeywordArg != nil:
		why = fmt.Sprintf("with `%s` %s", m.Text(info.KeywordArg), why)
	case info.Keyword != "":
		why = fmt.Sprintf("without `%s=True` %s", info.Keyword, why)
	}
	msg := fmt.Sprintf("%s %s, and no checkpoint follows before the handler returns: on mcp 1.x the late result is a second response that crashes the server", what, why)
	var fixes []Fix
	if fx, ok := c.keywordFix(m, info); ok {
		fixes = append(fixes, fx)
	}
	if fx, ok := checkpointFix(m, f, w); ok {
		fixes = append(fixes, fx)
	}
	c.p.ReportNode(m, info.Call, msg, c.p.HandlerRelated(f), fixes...)
}

func shortOffloadName(q string) string {
	switch {
	case strings.HasPrefix(q, "anyio."):
		return q
	case q == "asyncer.asyncify":
		return "asyncify(...)(...)"
	}
	return q[strings.LastIndex(q, ".")+1:]
}

// keywordFix passes abandon_on_cancel=True (or cancellable=True), or turns a
// written False into True.
func (c *mcp101Check) keywordFix(m *pyast.Module, info checkpoint.OffloadInfo) (Fix, bool) {
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
	if info.Func == "anyio.to_thread.run_sync" && c.p.Project != nil && c.p.Project.AnyioAdmits("0", "4.1.0") == deps.Yes {
		kw = "cancellable" // the only name anyio < 4.1 accepts; 4.x still takes it
	}
	args := info.KeywordCall.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "argument_list" {
		return Fix{}, false
	}
	var last *pyast.Node
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() != "comment" {
			last = a
		}
	}
	e := Edit{Path: m.Path, Start: int(args.StartByte()) + 1, New: kw + "=True"}
	if last != nil {
		e.Start, e.New = int(last.EndByte()), ", "+kw+"=True"
		if comma := trailingComma(args, last); comma != nil {
			// f(a, b,) and one argument a line: keep the layout.
			e.Start, e.New = int(comma.EndByte()), " "+kw+"=True"
			if indent, own := stmtIndent(m, last); own {
				e.New = lineNewline(m.Src, srcLineEnd(m.Src, int(last.EndByte()))) + indent + kw + "=True,"
			}
		}
	}
	e.End = e.Start
	return Fix{
		Message:       fmt.Sprintf("pass %s=True (the worker keeps running after a cancel)", kw),
		Applicability: Unsafe,
		Edits:         []Edit{e},
	}, true
}

// trailingComma returns the "," after the last argument, or nil.
func trailingComma(args, last *pyast.Node) *pyast.Node {
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
func checkpointFix(m *pyast.Module, f *pyast.Function, w checkpoint.Wait) (Fix, bool) {
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
		if !s.Equals(*w.At) || leavesEarly(s) {
			return Fix{}, false
		}
	default:
		return Fix{}, false
	}
	indent, first := stmtIndent(m, s)
	if !first {
		return Fix{}, false
	}
	end := int(s.EndByte())
	eol := srcLineEnd(m.Src, end)
	if rest := strings.TrimSpace(string(m.Src[end:eol])); rest != "" && !strings.HasPrefix(rest, "#") {
		return Fix{}, false // "x = await f(); y()" or a trailing backslash
	}
	nl := lineNewline(m.Src, eol)
	anyio, imp, ok := anyioName(m, s)
	if !ok {
		return Fix{}, false
	}
	at := eol + len(nl)
	lead := ""
	if eol == len(m.Src) {
		at, lead = eol, srcNewline(m.Src)
		nl = lead
	}
	text := lead + indent + "await " + anyio + ".lowlevel.checkpoint_if_cancelled()" + nl
	var edits []Edit
	if imp != nil {
		edits = append(edits, *imp)
	}
	msg := "insert `await " + anyio + ".lowlevel.checkpoint_if_cancelled()` after the statement"
	if ret != nil {
		name := freeName(m, f, "result")
		edits = append(edits, Edit{Path: m.Path, Start: int(s.StartByte()), End: int(ret.StartByte()), New: name + " = "})
		text += indent + "return " + name + nl
		msg = "assign the result, " + msg + ", then return it"
	}
	edits = append(edits, Edit{Path: m.Path, Start: at, End: at, New: text})
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

// lineNewline returns the line ending at eol (as found by srcLineEnd).
func lineNewline(src []byte, eol int) string {
	switch {
	case eol < len(src) && src[eol] == '\r':
		return "\r\n"
	case eol < len(src):
		return "\n"
	}
	return ""
}

// anyioName returns the name that refers to the anyio module where s runs:
// anyio, or an alias (import anyio as aio), adding `import anyio` when none
// does (imp). ok is false when the name anyio is bound to something else.
func anyioName(m *pyast.Module, s *pyast.Node) (name string, imp *Edit, ok bool) {
	sc := m.ScopeAt(s)
	isAnyio := func(n string) bool {
		bs := sc.Lookup(n)
		for _, b := range bs {
			if b.Kind != pyast.BindImport || len(b.Targets) != 1 || b.Targets[0] != "anyio" {
				return false
			}
		}
		return len(bs) > 0
	}
	if isAnyio("anyio") {
		return "anyio", nil, true
	}
	for x := sc; x != nil; x = x.Parent {
		names := x.Names()
		sort.Strings(names)
		for _, n := range names {
			if n != "anyio" && isAnyio(n) {
				return n, nil, true
			}
		}
	}
	e, need, ok := anyioImport(m, sc)
	if !ok {
		return "", nil, false
	}
	if need {
		return "anyio", &e, true
	}
	return "anyio", nil, true
}
