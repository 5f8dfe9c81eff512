package rules

// The respond/cancel guard as a fix (SPEC section 1, the third remedy): a
// small module written into the project that makes
// RequestResponder.respond() and .cancel() return early when the request was
// already answered, imported first by the modules that create the server.
// MCP001 and MCP002 offer it next to the move to mcp 2.x; MCP106 completes a
// guard that patches respond() only.

import (
	"path"
	"strings"
	"unicode"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// GuardDoc explains the guard in the docs of the rules whose findings it
// turns into notes (Rule.Guarded).
const GuardDoc = "On mcp 1.x, a third remedy besides moving to mcp 2.x and making the awaited work cancellable " +
	"is an idempotence guard: a small module, imported before the server starts, that replaces " +
	"`RequestResponder.respond()` and `RequestResponder.cancel()` (in `mcp.shared.session`) with functions that " +
	"return early when `self._completed` is already set, so a request is never answered twice. Measured on mcp " +
	"1.29.0 and fastmcp 3.4.7, with the guard imported first, the worker-thread, catch-and-return and fastmcp 3 " +
	"sync `def` patterns all survive a cancel, and the guard also closes the race that even perfect handler code " +
	"keeps on 1.x (a cancel that lands after the handler returned). Prefer it for a large 1.x server that cannot " +
	"migrate yet, or cannot touch every tool. Its cost: it patches a private attribute of the SDK, and it must be " +
	"removed on mcp 2.x (rule MCP107 says when). A finding is a note (shown with `--show-safe`) where every " +
	"server that can run its code, in its own process, installs a complete guard before it starts serving (for a " +
	"pin: every server of the project): one server's guard says nothing of another's, and an import or patch that " +
	"may not run (under `if`, `if TYPE_CHECKING:`, in an `except` handler, in a function nothing calls first) does " +
	"not count. `--verbose` and the markdown report name the file and line that guard a project. The guard does " +
	"not fix the crash at transport close below mcp 1.27.0: MCP001 stays an error there, and MCP105 too. MCP001 " +
	"and MCP002 offer the guard as an unsafe fix that writes " +
	"`" + GuardModuleName + ".py` and imports it first where the server is created; MCP106 reports a guard that " +
	"is incomplete or runs too late."

// GuardModuleName is the module the guard fix writes.
const GuardModuleName = "mcp_respond_guard"

// GuardModule is the source of the module the guard fix writes. Its
// semantics are those of SPEC section 1: respond() and cancel() return None
// at once when self._completed is set, and otherwise call the SDK's own
// method with the same arguments and return its result.
const GuardModule = `"""Guard for mcp 1.x: a request is answered at most once.

In mcp 1.x (1.12.3 up to 1.30.0), when a client cancels a request,
RequestResponder.cancel() answers it at once with "Request cancelled". If the
handler then returns normally (it was waiting on work that cannot observe the
cancel: a worker thread, a shielded scope, a swallowed CancelledError),
respond() answers a second time and fails with
"AssertionError: Request already responded to", which stops the server. A
cancel that arrives after the response, or a repeated cancel, does the same
through cancel().

This module makes respond() and cancel() return early when the request was
already answered. It must be imported before the server starts: the module
that creates the server imports it first.

It relies on a private attribute of the SDK (RequestResponder._completed).
Remove this module, and its import, when the project moves to mcp 2.x, which
never answers a cancelled request twice and has no RequestResponder.

Written by mcplint (https://github.com/mcplint/mcplint).
"""

import functools

from mcp.shared.session import RequestResponder

_sdk_respond = RequestResponder.respond
_sdk_cancel = RequestResponder.cancel


@functools.wraps(_sdk_respond)
async def _respond_once(self, *args, **kwargs):
    if self._completed:
        return None
    return await _sdk_respond(self, *args, **kwargs)


@functools.wraps(_sdk_cancel)
async def _cancel_once(self, *args, **kwargs):
    if self._completed:
        return None
    return await _sdk_cancel(self, *args, **kwargs)


RequestResponder.respond = _respond_once
RequestResponder.cancel = _cancel_once
`

// GuardFix returns the fix that writes the guard module next to the first
// module that creates a server and imports it first in every module that
// creates one. A guard protects only the processes that import it
// (handlers.Index.GuardOf), so every serving site gets the import, and so
// does every module that starts serving without loading one of them
// (handlers.Index.StartsWithout): one in another folder imports the same
// module by its dotted name where both are in one package
// (app.mcp_respond_guard from app/b/server.py), else gets a guard module of
// its own beside it. ok is false when the project has no
// server, or already has a guard (complete or not: MCP106 and MCP107 speak
// about it).
func GuardFix(p *Pass) (Fix, bool) {
	hx := p.Handlers
	sites := hx.ServingSites()
	if len(sites) == 0 || len(hx.Guards()) > 0 || mcpBeforeCancel(p) {
		return Fix{}, false
	}
	var edits []Edit
	var files, where []string
	names := map[string]string{} // folder -> the name its sites import the guard by
	var qualified []string       // dotted names of the guards written so far, inside packages
	seen := map[*pyast.Module]bool{}
	var targets []*pyast.Module
	for _, s := range sites {
		if !seen[s.Module] {
			seen[s.Module] = true
			targets = append(targets, s.Module)
		}
	}
	// A module that runs a server it does not construct where mcplint sees
	// it, without loading any of those first, is a process of its own.
	targets = append(targets, hx.StartsWithout(seen)...)
	for _, m := range targets {
		dir := path.Dir(m.Path)
		name, ok := names[dir]
		if !ok {
			name = guardFrom(m, qualified, p.Modules)
		}
		if name == "" {
			if p.Project != nil && p.Project.File(m.Path) != nil {
				// A PEP 723 script is a project of one file: a module
				// beside it would belong to another project.
				return Fix{}, false
			}
			file := path.Join(dir, GuardModuleName+".py")
			for _, o := range p.Modules {
				if o.Path == file {
					return Fix{}, false
				}
			}
			name = GuardModuleName
			if pkg := packageOf(m); pkg != "" && importable(pkg) && !importsSiblingByTopName(m, p.Modules) {
				name = pkg + "." + GuardModuleName
				qualified = append(qualified, name)
			}
			edits = append(edits, Edit{Path: file, New: GuardModule, Create: true})
			files = append(files, file)
		}
		names[dir] = name
		nl := pystyle.Newline(m.Src)
		at, lead := firstImportOffset(m)
		text := lead + "# Must stay the first import: " + GuardModuleName + ".py says why." + nl +
			"import " + name + "  # noqa: F401  # isort: skip" + nl
		edits = append(edits, Edit{Path: m.Path, Start: at, End: at, New: text})
		where = append(where, m.Path)
	}
	if len(names) == 1 {
		for i := range where {
			where[i] = path.Base(where[i])
		}
	}
	return Fix{
		Message: "stay on mcp 1.x and add a guard: write " + strings.Join(files, " and ") + ", which makes RequestResponder.respond() and " +
			".cancel() return early once the request was answered, and import it first in " + strings.Join(where, ", ") +
			" (it patches a private attribute of the SDK; remove it when moving to mcp 2.x)",
		Applicability: Unsafe,
		Edits:         edits,
		NeedsMCP1:     true,
	}, true
}

// guardFrom returns the dotted name by which module m, in a folder with no
// guard of its own yet, can import a guard already written inside a package
// of the project (one of qualified): m is in the same top-level package and
// is run as part of it (it imports no sibling by a top-level name). "" when
// none can be.
func guardFrom(m *pyast.Module, qualified []string, mods []*pyast.Module) string {
	top, _, _ := strings.Cut(m.Name, ".")
	if top == "" || !importable(packageOf(m)) || importsSiblingByTopName(m, mods) {
		return ""
	}
	for _, q := range qualified {
		if t, _, _ := strings.Cut(q, "."); t == top {
			return q
		}
	}
	return ""
}

// mcpBeforeCancel reports whether the project's mcp can only be below 1.3.0
// (a lock or an exact pin there): RequestResponder.cancel() came with
// 1.3.0rc1 (it is in neither 1.1.x nor 1.2.x), so the guard module would
// fail at import (AttributeError) and stop the server from starting, and
// there is no cancel crash for it to close (the notification fails
// validation instead).
func mcpBeforeCancel(p *Pass) bool {
	return p.Project.MCPAdmits("1.3.0rc1", "") == deps.No
}

// importsSiblingByTopName reports whether m imports a module beside it by
// a top-level name (from services.tools import x, with services/tools.py
// beside m) and nothing relatively: m's folder is then on sys.path when it
// runs (a src/ layout installed with package-dir "" = "src", a script's
// folder), whatever __init__.py files above it say, so the guard beside it
// is imported by its bare name. The whole dotted name must be a module of
// the project in that folder: from mcp.server.fastmcp import FastMCP beside
// an app/mcp/ subpackage that has no server/fastmcp.py is the SDK's, not a
// sign of it, and neither is a standard library name (import logging with a
// logging/ package beside).
func importsSiblingByTopName(m *pyast.Module, mods []*pyast.Module) bool {
	dir := path.Dir(m.Path)
	for n := range m.Nodes("import_from_statement") {
		if mod := n.ChildByFieldName("module_name"); mod != nil && mod.Kind() == "relative_import" {
			return false
		}
	}
	beside := func(full string) bool {
		if head, _, _ := strings.Cut(full, "."); pystyle.IsStdlib(head) {
			return false
		}
		at := path.Join(dir, strings.ReplaceAll(full, ".", "/"))
		for _, o := range mods {
			// A module, a package, or a namespace package holding modules.
			if o != m && (o.Path == at+".py" || strings.HasPrefix(o.Path, at+"/")) {
				return true
			}
		}
		return false
	}
	for n := range m.Nodes("import_from_statement") {
		mod := n.ChildByFieldName("module_name")
		if mod == nil || mod.Kind() != "dotted_name" {
			continue // a relative import
		}
		if beside(pyast.DottedName(m, mod)) {
			return true
		}
	}
	for n := range m.Nodes("import_statement") {
		for _, full := range m.ImportTargets(n) {
			if beside(full) {
				return true
			}
		}
	}
	return false
}

// importable reports whether a dotted module name can be written in an
// import statement: a folder named 01_server or my-app is on the path as a
// script's folder, not a package, and `import 01_server.x` does not parse.
func importable(name string) bool {
	if name == "" {
		return false
	}
	for _, seg := range strings.Split(name, ".") {
		for i, r := range seg {
			if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
				return false
			}
		}
		if seg == "" {
			return false
		}
	}
	return true
}

// packageOf returns the dotted package a module is in ("" at the top).
func packageOf(m *pyast.Module) string {
	if m.IsPackage() {
		return m.Name
	}
	if i := strings.LastIndexByte(m.Name, '.'); i >= 0 {
		return m.Name[:i]
	}
	return ""
}

// firstImportOffset returns where a module's first import goes: after a BOM
// and the header (pystyle.HeaderEnd: the shebang and encoding comments, the
// module docstring, __future__ imports), before any other statement; lead is
// a newline to write first when that place is the end of a file with no
// final newline. Unlike pystyle.PlaceImport it does not sort the import
// among the others: the guard is imported first on purpose, and its line
// says "# isort: skip" so that isort and ruff's I rules leave it there.
func firstImportOffset(m *pyast.Module) (at int, lead string) {
	stmts := pyast.NamedChildren(m.Root)
	switch i := pystyle.HeaderEnd(stmts); {
	case i < len(stmts):
		at = pystyle.LineStart(m.Src, int(stmts[i].StartByte()))
	default:
		// Nothing but the header: after its last statement that is code,
		// else at the end.
		at = len(m.Src)
		for k := len(stmts) - 1; k >= 0; k-- {
			if stmts[k].Kind() != "comment" {
				at = pystyle.LineEnd(m.Src, int(stmts[k].EndByte()))
				at += len(pystyle.BreakAt(m.Src, at))
				break
			}
		}
	}
	if bom := "\ufeff"; at < len(bom) && strings.HasPrefix(string(m.Src), bom) {
		at = len(bom)
	}
	if at == len(m.Src) && at > 0 && pystyle.LineStart(m.Src, at) != at {
		lead = pystyle.Newline(m.Src)
	}
	return at, lead
}

// guardCancelFix returns the fix that completes a guard that patches
// respond() only: it patches cancel() the same way right after.
func guardCancelFix(g *handlers.Guard) (Fix, bool) {
	rp := g.Patch("respond")
	if rp == nil || rp.Target == "" {
		return Fix{}, false
	}
	m := rp.Module
	// After the respond patch, or after an unchecked cancel patch of the
	// same scope that comes later (it would replace the new one).
	at := rp.Stmt
	for _, p := range g.Patches {
		if p.Method == "cancel" && p.Stmt.EndByte() > at.EndByte() && m.FuncAt(p.Stmt) == m.FuncAt(rp.Stmt) &&
			p.Stmt.Parent().Equals(rp.Stmt.Parent()) {
			at = p.Stmt
		}
	}
	indent, own := pystyle.LineIndent(m, at)
	if !own {
		return Fix{}, false
	}
	for _, name := range []string{"_sdk_cancel", "_cancel_once"} {
		if len(m.ScopeAt(rp.Stmt).Lookup(name)) > 0 {
			return Fix{}, false
		}
	}
	nl := pystyle.Newline(m.Src)
	eol := pystyle.LineEnd(m.Src, int(at.EndByte()))
	lines := []string{
		"",
		"# cancel() must return early too: a repeated cancel, or one that arrives",
		"# after the response, would otherwise answer the request a second time.",
		"_sdk_cancel = " + rp.Target + ".cancel",
		"",
		"",
		"async def _cancel_once(self, *args, **kwargs):",
		"    if self._completed:",
		"        return None",
		"    return await _sdk_cancel(self, *args, **kwargs)",
		"",
		"",
		rp.Target + ".cancel = _cancel_once",
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(nl)
		if l != "" {
			b.WriteString(indent + l)
		}
	}
	return Fix{
		Message:       "guard cancel() too: patch " + rp.Target + ".cancel to return early once the request was answered",
		Applicability: Unsafe,
		Edits:         []Edit{{Path: m.Path, Start: eol, End: eol, New: b.String()}},
	}, true
}
