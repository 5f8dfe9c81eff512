package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
)

// MCP106 reports a respond/cancel guard (SPEC section 1, the third remedy)
// that does not close the crash: it patches respond() only, its
// replacement does not return early on self._completed, or it does not run
// before the server starts (before each of them: a guard protects only the
// processes that install it first, handlers.Index.UnguardedStarts). A guard that does close it turns MCP101-MCP104
// (and MCP001/MCP002) into notes; that is the engine's severity stage
// (Rule.Guarded).
//
// Recognised: the spellings handlers.Index.Guards recognises (attribute and
// tuple assignment, setattr, a subclass swapped in for
// mcp.shared.session.RequestResponder, functools.wraps factories, an
// install function called at import time, an import or install before
// run() on every path of the function that serves, setattr in a loop over
// literal method names). Not recognised: setattr with names computed otherwise,
// patches applied through a third-party helper.
var mcp106 = Register(&Rule{
	Code:      "MCP106",
	Name:      "incomplete-respond-guard",
	Kind:      CodeRule,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "mcp-1x", "crash", "guard"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.MCP1() },
	Doc: Doc{
		Summary: "A respond/cancel guard that does not close the mcp 1.x cancel crash",
		WhatItDoes: "Flags code that patches `mcp.shared.session.RequestResponder` of mcp 1.x so that a request is " +
			"answered once (the idempotence guard), when the guard is incomplete: it replaces `respond()` but not " +
			"`cancel()`, its replacement does not return early when `self._completed` is set, or it does not run " +
			"before the server starts (the module that holds it is not imported, at import time, by the module that " +
			"creates or runs the server, or is imported after `run()`; inside the function that runs the server " +
			"(`main()`, `anyio.run(main)`, an entry point) it counts when it is imported or installed before the " +
			"`run()` call on every path that serves; an import under an `if` or in an `except` handler counts for no " +
			"path, one under `if False:` or `if TYPE_CHECKING:` never runs), or it runs before some of the project's " +
			"servers but not before another that starts in a process of its own. A complete guard that runs in time " +
			"makes the MCP101–MCP104 findings of the servers it runs before notes (shown with `--show-safe`), and " +
			"MCP001 and MCP002 too when it runs before every server; `--verbose` and the markdown report name the " +
			"file and line that guard the project.",
		WhyIsThisBad: "The guard is the third remedy for the mcp 1.x cancel crash, for a server that cannot move to " +
			"mcp 2.x yet: `respond()` returning early stops the late result of a cancelled handler from answering a " +
			"second time. Guarding `respond()` alone is not enough: a repeated cancel, or a cancel that arrives after " +
			"the response, makes `cancel()` put a second terminal response on the wire. A guard installed after the " +
			"server started, or never imported, changes nothing: the handler findings stay errors.",
		Example: "from mcp.shared.session import RequestResponder\n\n_sdk_respond = RequestResponder.respond\n\n\n" +
			"async def _respond_once(self, *args, **kwargs):\n    if self._completed:\n        return None\n" +
			"    return await _sdk_respond(self, *args, **kwargs)\n\n\nRequestResponder.respond = _respond_once\n",
		UseInstead: "from mcp.shared.session import RequestResponder\n\n_sdk_respond = RequestResponder.respond\n" +
			"_sdk_cancel = RequestResponder.cancel\n\n\nasync def _respond_once(self, *args, **kwargs):\n" +
			"    if self._completed:\n        return None\n    return await _sdk_respond(self, *args, **kwargs)\n\n\n" +
			"async def _cancel_once(self, *args, **kwargs):\n    if self._completed:\n        return None\n" +
			"    return await _sdk_cancel(self, *args, **kwargs)\n\n\nRequestResponder.respond = _respond_once\n" +
			"RequestResponder.cancel = _cancel_once\n\n# and in the module that creates the server, first:\n" +
			"# import mcp_respond_guard\n",
		FixSafety: "For a guard that patches `respond()` only, the fix patches `cancel()` the same way right after it " +
			"(unsafe: it relies on the private attribute `RequestResponder._completed`, like the guard itself; only " +
			"a cancel of a request already answered behaves differently). A guard that runs too late gets no edit: " +
			"import its module first in the module that creates the server. Remove the guard when moving to mcp 2.x " +
			"(rule MCP107).",
		References: []string{
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.27.0/src/mcp/shared/session.py",
			"https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/cancellation",
		},
	},
	Run: runMCP106,
})

func runMCP106(p *Pass) {
	hx := p.Handlers
	if len(hx.ServerSites()) == 0 {
		return
	}
	if hx.ActiveGuard() != nil {
		return // guarded: other, unused patches are harmless
	}
	for _, g := range hx.Guards() {
		m := g.Module
		stmt := g.Stmt()
		switch {
		case !g.Active && (g.Patch("respond") != nil || g.Patch("cancel") != nil):
			p.ReportNode(m, stmt, fmt.Sprintf("this respond/cancel guard does not run before the server starts, so "+
				"it does not count: %s. Import it first in %s, which creates the server", g.Why, path.Base(hx.ServingSites()[0].Module.Path)), nil)
		case g.Patch("respond") != nil && g.Patch("cancel") == nil && !activeCancel(hx):
			var fixes []Fix
			if f, ok := guardCancelFix(g); ok {
				fixes = append(fixes, f)
			}
			p.ReportNode(m, stmt, "this guard makes respond() return early once the request was answered, but not "+
				"cancel(): a repeated cancel, or a cancel that arrives after the response, still sends a second "+
				"terminal response; cancel() must be guarded too", nil, fixes...)
		case g.Patch("respond") != nil && len(hx.UnguardedStarts()) > 0:
			// Complete and in place for some servers, not for others: a
			// guard protects only the processes that install it first.
			var others []string
			for _, m := range hx.UnguardedStarts() {
				others = append(others, relPath(p, m))
			}
			if len(others) > 3 {
				others = append(others[:3], fmt.Sprintf("%d more", len(others)-3))
			}
			p.ReportNode(m, stmt, fmt.Sprintf("this guard does not run before every server of the project: not before "+
				"those started from %s; each serves in a process of its own, so their findings stay errors; import "+
				"it first there too", strings.Join(others, ", ")), nil)
		default:
			for _, pt := range g.Patches {
				// A value mcplint cannot follow to a function (a saved
				// original put back, a library's callable) may or may not
				// check: nothing to say about it.
				if pt.Checks || pt.Func.Func == nil {
					continue
				}
				p.ReportNode(m, pt.Stmt, fmt.Sprintf("this replaces RequestResponder.%s() with a function that is not a guard: "+
					"it does not start by returning when self._completed is set (`if self._completed: return` before any await); "+
					"mcplint does not count it as a guard against answering a request twice, so the handler findings stay "+
					"errors (if it guards another way, say so in a suppression)", pt.Method), nil)
			}
		}
	}
}

// activeCancel reports whether an active guard of the project patches
// cancel() with the _completed check.
func activeCancel(hx *handlers.Index) bool {
	for _, g := range hx.Guards() {
		if g.Active && g.Patch("cancel") != nil {
			return true
		}
	}
	return false
}
