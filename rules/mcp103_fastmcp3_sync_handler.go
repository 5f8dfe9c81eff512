package rules

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// MCP103 finds sync def tools, static resources, prompts and resource
// templates that take an injected parameter (a Context, Depends(...)),
// registered on PrefectHQ fastmcp, which fastmcp 3.x runs in a worker thread
// without abandon_on_cancel. A sync resource template with no injected
// parameter runs inline on the event loop (SPEC section 1) and is not
// reported.
//
// Recognised: every registration form the handlers package finds with
// Framework PrefectFastMCP (decorators with and without parentheses, call
// forms, add_tool, FastMCP(tools=[...]), standalone fastmcp.tools.tool and
// friends, from_function constructors). Where the server's class comes from
// a try/except import with both fastmcp.FastMCP and mcp.server.fastmcp.FastMCP,
// the class the first import gives is used when the project's dependencies
// make it importable, else the fallback.
//
// Not reported: handlers of the official SDK (sync tools run inline there),
// async def handlers, run_in_thread=False (or any value but True) at the
// registration, a sync def whose body only returns the call of an async
// function of the project (the thread just creates the coroutine), and a
// sync def wrapped by a project decorator that defines an async wrapper.
// fastmcp 2.x and 4.x are left to Exposure.
var mcp103 = Register(&Rule{
	Code:      "MCP103",
	Name:      "fastmcp3-sync-handler",
	Kind:      CodeRule,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "fastmcp-3x", "crash", "threads"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.FastMCP3() },
	Guarded:   true,
	Doc: Doc{
		Summary: "A sync def handler on fastmcp 3.x runs in a worker thread that ignores the client's cancel",
		WhatItDoes: "Flags a tool, static resource, prompt, or resource template that takes an injected parameter " +
			"(`Context`, `Depends(...)`) written as a plain `def` and registered on " +
			"PrefectHQ `fastmcp` (any registration form: `@mcp.tool`, `@mcp.tool()`, `mcp.tool(fn)`, `mcp.add_tool`, " +
			"`FastMCP(tools=[...])`, the standalone `@tool` decorator, ...) when the project's fastmcp is 3.x or " +
			"unknown. It does not flag the official SDK's `mcp.server.fastmcp.FastMCP`, handlers registered with " +
			"`run_in_thread=False`, a `def` that only returns the coroutine of an `async def`, or a sync resource template " +
			"(URI with `{params}`) without an injected parameter, which fastmcp 3 reads inline on the event loop.",
		WhyIsThisBad: "fastmcp 3.x runs sync handlers with `anyio.to_thread.run_sync()` without `abandon_on_cancel`. " +
			"When the client cancels the request, the await keeps waiting for the thread and then returns its result " +
			"normally. mcp 1.x (which fastmcp 3.x runs on) has already answered the cancelled request, so it responds a " +
			"second time, fails `assert not self._completed, \"Request already responded to\"`, and the server dies.",
		Example: "from fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n@mcp.tool\ndef crunch(n: int) -> int:\n" +
			"    \"\"\"Crunch numbers.\"\"\"\n    return slow(n)\n",
		UseInstead: "import anyio\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n@mcp.tool\nasync def crunch(n: int) -> int:\n" +
			"    \"\"\"Crunch numbers.\"\"\"\n    def _crunch_sync(n):\n        return slow(n)\n" +
			"    return await anyio.to_thread.run_sync(_crunch_sync, n, abandon_on_cancel=True)\n",
		FixSafety: "The fix is chosen by what the handler does. A body that calls nothing that can block (no call, or " +
			"only pure builtins and methods of strings) gets `run_in_thread=False` first: on fastmcp >= 3.3 the function " +
			"stays a sync def, so code that calls it directly keeps working, and it runs on the event loop without " +
			"blocking it (safe where the project's fastmcp is known to be >= 3.3, unsafe where it may be older; not " +
			"with `timeout=`). A body that blocks and that the project calls directly (its tests included) stays a sync " +
			"def for those callers: its registration moves to a new `async def` with the same parameters, annotations, " +
			"defaults, docstring and `name=`, which runs it with `anyio.to_thread.run_sync(..., abandon_on_cancel=True)` " +
			"(unsafe: after a cancel the thread keeps running unobserved). Otherwise the handler itself becomes an " +
			"`async def` that runs its old body that way (unsafe, same reason), and `run_in_thread=False` comes second " +
			"(unsafe: a blocking body then blocks every other request while it runs). Handlers defined in test code " +
			"(test_*.py, conftest.py, tests/) get the same advice, display-only. Upgrading to fastmcp 4 (mcp 2.x) fixes " +
			"the crash without touching the handler.",
		References: []string{
			"https://gofastmcp.com/servers/tools",
			"https://anyio.readthedocs.io/en/stable/threads.html",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.30.0/src/mcp/shared/session.py",
		},
	},
	Run: runMCP103,
})

// syncHandlerKinds are the fastmcp components whose sync functions run in a
// worker thread.
var syncHandlerKinds = map[string]bool{"tool": true, "resource": true, "resource template": true, "template": true, "prompt": true}

func runMCP103(p *Pass) {
	seen := map[*pyast.Function]bool{}
	for _, h := range p.Handlers.Handlers {
		if seen[h.Func] || !fastmcp3Candidate(p, h) {
			continue
		}
		seen[h.Func] = true
		m, f := h.Module, h.Func
		msg := fmt.Sprintf("sync def %s %s ignores the cancel in a fastmcp 3.x worker thread: fastmcp 3.x runs it without abandon_on_cancel; after a client's cancel it returns normally and mcp 1.x responds twice and crashes", h.Kind, f.Name)
		fixes := mcp103Fixes(p, h)
		name := f.Node.ChildByFieldName("name")
		loc := SpanLocation(m.Path, m.Lines, int(f.Node.StartByte()), int(name.EndByte()))
		reportIn(p, f, loc, msg, fixes...)
	}
}

// fastmcp3Candidate reports whether h is a sync fastmcp handler that the
// framework runs in a worker thread.
func fastmcp3Candidate(p *Pass, h *handlers.Handler) bool {
	if h.Func == nil || h.Func.Async() || !syncHandlerKinds[h.Kind] {
		return false
	}
	switch h.Framework {
	case handlers.PrefectFastMCP, handlers.OfficialFastMCP:
	default:
		return false
	}
	if !prefectChosen(p, h) {
		return false
	}
	if v := h.Options["run_in_thread"]; v != nil && !pyast.IsTrue(v) {
		return false
	}
	if h.Kind == "resource template" && h.Framework == handlers.PrefectFastMCP && !injectsParam(h.Module, h.Func) {
		return false // fastmcp 3 reads such a template inline on the event loop
	}
	if returnsCoroutine(p, h.Module, h.Func) {
		return false
	}
	for _, w := range h.Wrappers {
		// A per-call wrapper that is an async def (registered in place of
		// the function, which it runs) or a decorator that defines one
		// makes what fastmcp serves a coroutine function.
		if w.Async() || definesAsync(p.Handlers.Module(w), w, h.Func.Async()) {
			return false
		}
	}
	return true
}

// injectsParam reports whether a handler takes a parameter fastmcp injects
// rather than fills from the request: one annotated with a fastmcp or mcp
// Context (also inside Optional[...] or a union), or one whose default is a
// call of a fastmcp dependency (Depends(...), CurrentContext(), ...).
// fastmcp 3 reads a sync resource template inline unless it takes one
// (SPEC section 1).
func injectsParam(m *pyast.Module, f *pyast.Function) bool {
	for _, prm := range f.Params {
		if ann := prm.Annotation(); ann != nil {
			found := false
			pyast.Walk(ann, func(n *pyast.Node) bool {
				if found {
					return false
				}
				if n.Kind() == "identifier" || n.Kind() == "attribute" {
					for _, q := range m.Resolve(n) {
						if (strings.HasPrefix(q, "fastmcp.") || strings.HasPrefix(q, "mcp.")) && strings.HasSuffix(q, ".Context") {
							found = true
						}
					}
					return false
				}
				return true
			})
			if found {
				return true
			}
		}
		if d := pyast.Unparen(prm.Default()); d != nil && d.Kind() == "call" {
			for _, q := range m.Resolve(pyast.Callee(d)) {
				if strings.HasPrefix(q, "fastmcp.") || strings.HasPrefix(q, "docket.") {
					return true
				}
			}
		}
	}
	return false
}

// prefectChosen decides which FastMCP a handler's server is. When the server
// is built from a name imported in a try/except (both fastmcp.FastMCP and
// mcp.server.fastmcp.FastMCP), the first import wins if the project's
// dependencies can install it; fastmcp < 4 pulls mcp 1.x, which has
// mcp.server.fastmcp.
func prefectChosen(p *Pass, h *handlers.Handler) bool {
	var prefect, official []int
	sm := h.SiteModule
	if sm == nil {
		return h.Framework == handlers.PrefectFastMCP
	}
	for i, t := range serverTypesAt(sm, h.Site) {
		switch {
		case strings.HasPrefix(t, "fastmcp."):
			prefect = append(prefect, i)
		case strings.HasPrefix(t, "mcp.server."):
			official = append(official, i)
		}
	}
	if len(prefect) == 0 || len(official) == 0 {
		return h.Framework == handlers.PrefectFastMCP
	}
	if prefect[0] < official[0] {
		return fastmcpImportable(p)
	}
	officialImportable := p.Project.MCPAdmits("", "2.0.0").Or(p.Project.FastMCPAdmits("", "4.0.0"))
	return officialImportable == deps.No
}

// fastmcpImportable reports whether PrefectHQ fastmcp can be installed: the
// project's dependency files declare, lock or assume it, or there are none.
func fastmcpImportable(p *Pass) bool {
	if p.Project == nil || len(p.Project.Files) == 0 {
		return true
	}
	r := p.Project.Resolution("fastmcp")
	return r.Known && p.Project.FastMCPAdmits("", "") != deps.No
}

// serverTypesAt returns the constructor names of the server object a
// registration site uses (mcp in @mcp.tool, mcp.tool(fn), mcp.add_tool(fn)).
func serverTypesAt(m *pyast.Module, site *pyast.Node) []string {
	n := pyast.Unparen(site)
	for n != nil && n.Kind() == "call" {
		n = pyast.Unparen(pyast.Callee(n))
	}
	if n == nil || n.Kind() != "attribute" {
		return nil
	}
	return m.TypesOf(n.ChildByFieldName("object"))
}

// returnsCoroutine reports whether f's body (after its docstring) is only
// `return g(...)` with g an async function: the thread only builds the
// coroutine and fastmcp awaits it.
func returnsCoroutine(p *Pass, m *pyast.Module, f *pyast.Function) bool {
	stmts := blockStmts(f.Body)
	if f.Doc() != nil && len(stmts) > 0 {
		stmts = stmts[1:]
	}
	if len(stmts) != 1 || stmts[0].Kind() != "return_statement" {
		return false
	}
	call := pyast.ReturnValue(stmts[0])
	if call == nil || call.Kind() != "call" {
		return false
	}
	for _, q := range m.Resolve(pyast.Callee(call)) {
		for _, g := range m.Funcs {
			if g.Qual == q {
				return g.Async()
			}
		}
		if r, ok := p.Handlers.Function(q); ok {
			return r.Func.Async()
		}
	}
	return false
}

// definesAsync reports whether a wrapper function defines an async def: a
// decorator that turns the handler into a coroutine function. For a sync
// handler, an async def that the wrapper makes only for coroutine
// functions does not count: one in the body of `if
// inspect.iscoroutinefunction(f):` (or asyncio's), or in the else of `if
// not ...iscoroutinefunction(f):` (the wrapper builds a sync one for it).
func definesAsync(m *pyast.Module, w *pyast.Function, handlerAsync bool) bool {
	found := false
	pyast.Walk(w.Body, func(n *pyast.Node) bool {
		if found {
			return false
		}
		if n.Kind() == "function_definition" && pyast.HasChildKind(n, "async") &&
			(handlerAsync || m == nil || !forCoroutinesOnly(m, w.Body, n)) {
			found = true
		}
		return !found
	})
	return found
}

// forCoroutinesOnly reports whether node n of body runs only when a test of
// iscoroutinefunction is true: it lies in the body of an if (or elif) whose
// condition is such a call, or in the else of one whose condition is its
// negation.
func forCoroutinesOnly(m *pyast.Module, body, n *pyast.Node) bool {
	for c, p := n, n.Parent(); p != nil && !c.Equals(body); c, p = p, p.Parent() {
		switch p.Kind() {
		case "if_statement", "elif_clause":
			cond := pyast.Unparen(p.ChildByFieldName("condition"))
			if b := p.ChildByFieldName("consequence"); b != nil && b.Equals(c) && testsCoroutine(m, cond) {
				return true
			}
			if cond != nil && cond.Kind() == "not_operator" && testsCoroutine(m, cond.ChildByFieldName("argument")) {
				if e := p.ChildByFieldName("alternative"); e != nil && e.Equals(c) {
					return true
				}
			}
		}
	}
	return false
}

// testsCoroutine reports whether e is a call of inspect.iscoroutinefunction
// or asyncio.iscoroutinefunction.
func testsCoroutine(m *pyast.Module, e *pyast.Node) bool {
	e = pyast.Unparen(e)
	if e == nil || e.Kind() != "call" {
		return false
	}
	for _, q := range m.Resolve(pyast.Callee(e)) {
		if q == "inspect.iscoroutinefunction" || q == "asyncio.iscoroutinefunction" {
			return true
		}
	}
	return false
}
