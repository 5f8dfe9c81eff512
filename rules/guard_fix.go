package rules

// The respond/cancel guard as a fix (SPEC section 1, the third remedy): a
// small module written into the project that makes
// RequestResponder.respond() and .cancel() return early when the request was
// already answered, imported first by the modules that create the server.
// MCP001 and MCP002 offer it next to the move to mcp 2.x; MCP106 completes a
// guard that patches respond() only.

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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

// GuardFix returns the fix that writes the guard module and imports it
// first in every module that creates a server. A guard protects only the
// processes that import it (handlers.Index.GuardOf), so every serving site
// gets the import (or the module that starts its process and mounts its
// server, once for all it loads: handlers.Index.StartLoading), and so does
// every module that starts serving without loading one of them
// (handlers.Index.StartsWithout). The import is the one
// the module's process resolves (guardTarget): relative, absolute through
// the module's own package, or bare when its folder is on sys.path. Modules
// of one package share one guard, written in the folder of their nearest
// common package (guardPlan); a folder outside packages gets its own. ok is
// false when the project has no server, or already has a guard (complete or
// not: MCP106 and MCP107 speak about it).
func GuardFix(p *Pass) (Fix, bool) {
	hx := p.Handlers
	sites := hx.ServingSites()
	if len(sites) == 0 || len(hx.Guards()) > 0 || mcpBeforeCancel(p) {
		return Fix{}, false
	}
	seen := map[*pyast.Module]bool{}
	var targets []*pyast.Module
	creates := map[*pyast.Module]bool{}
	for _, s := range hx.ServerSites() {
		creates[s.Module] = true
	}
	for _, s := range sites {
		// Where the module that starts the process creates a server too
		// (one that mounts the servers of the modules it loads), the
		// guard goes there, once, rather than into each of those modules.
		m := s.Module
		if st := hx.StartLoading(m); st != nil && creates[st] {
			m = st
		}
		if !seen[m] {
			seen[m] = true
			targets = append(targets, m)
		}
	}
	// A module that runs a server it does not construct where mcplint sees
	// it, without loading any of those first, is a process of its own.
	targets = append(targets, hx.StartsWithout(seen)...)
	for _, m := range targets {
		if p.Project != nil && p.Project.File(m.Path) != nil {
			// A PEP 723 script is a project of one file: a module beside
			// it would belong to another project.
			return Fix{}, false
		}
	}
	plan := guardPlan(p, targets)
	var edits []Edit
	var files, where []string
	for _, m := range targets {
		g, t := guardTargetOf(plan, m)
		if !slices.Contains(files, g.file) {
			for _, o := range p.Modules {
				if o.Path == g.file {
					return Fix{}, false
				}
			}
			edits = append(edits, Edit{Path: g.file, New: GuardModule, Create: true})
			files = append(files, g.file)
		}
		nl := pystyle.Newline(m.Src)
		at, lead, afterFuture := firstImportOffset(m)
		text := lead + "# Must stay the first import: " + GuardModuleName + ".py says why." + nl +
			t.line(p.style().WidthFor(m)) + nl
		if afterFuture {
			// isort 5 (5.6.4 measured) moves a skipped import that
			// follows __future__ imports below the block; a split after
			// it keeps it there (ruff's I rules honour both comments).
			text += "# isort: split" + nl
		}
		edits = append(edits, Edit{Path: m.Path, Start: at, End: at, New: text})
		where = append(where, m.Path)
	}
	if oneFolder(where) {
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

// guardImport is how one module imports the guard: how its process finds
// its own folder (style), and the guard's folder relative to it.
type guardImport struct {
	mod   *pyast.Module
	style importStyle
	pkg   string // the dotted package of the module's folder, as it imports it (absolute)
	up    int    // folders between the module's and the guard's (0: beside it)
	reach int    // how many folders above its own it can import from (its package's depth)
}

// importStyle is how a module that creates a server is loaded.
type importStyle int

const (
	// bare: its folder is on sys.path (a script, a src/ layout installed
	// with package-dir "" = "src", a top-level module): import mcp_respond_guard.
	bare importStyle = iota
	// relative: it is loaded as a module of its package: from . import.
	relative
	// absolute: it imports its own package by its dotted name: from pkg import.
	absolute
)

// line returns the import statement of the guard for the module, within
// width where a shorter form exists: an absolute import that does not fit
// becomes relative (the module is in that package either way).
func (g guardImport) line(width int) string {
	const tail = "  # noqa: F401  # isort: skip"
	rel := "from " + strings.Repeat(".", g.up+1) + " import " + GuardModuleName + tail
	switch g.style {
	case absolute:
		segs := strings.Split(g.pkg, ".")
		abs := "from " + strings.Join(segs[:len(segs)-g.up], ".") + " import " + GuardModuleName + tail
		if utf8.RuneCountInString(abs) <= width {
			return abs
		}
		return rel
	case relative:
		return rel
	}
	return "import " + GuardModuleName + tail
}

// guardGroup is one guard module to write and the modules that import it.
type guardGroup struct {
	file    string
	imports []guardImport
}

// guardTargetOf returns the group of the plan that m imports, and how.
func guardTargetOf(plan []guardGroup, m *pyast.Module) (guardGroup, guardImport) {
	for _, g := range plan {
		for _, t := range g.imports {
			if t.mod == m {
				return g, t
			}
		}
	}
	panic("guardPlan left out a target")
}

// guardPlan decides where the guard modules go and how each target imports
// its guard. A target's folder and the package folders above it that its
// import can reach (regular packages: each holds an __init__.py; never the
// project's own folder, whose name is the checkout's) make its chain; the
// targets whose chains end in the same folder are in one package and share
// one guard, written in the nearest folder common to them all. A target
// loaded by a bare name reaches its own folder only.
func guardPlan(p *Pass, targets []*pyast.Module) []guardGroup {
	inits := map[string]bool{}
	for _, f := range p.PyFiles {
		if path.Base(f) == "__init__.py" {
			inits[path.Dir(f)] = true
		}
	}
	for _, m := range p.Modules {
		if path.Base(m.Path) == "__init__.py" {
			inits[path.Dir(m.Path)] = true
		}
	}
	projDir := "."
	if p.Project != nil {
		projDir = p.Project.Dir
	}
	var order []string
	groups := map[string][]guardImport{}
	for _, m := range targets {
		t := guardTarget(m, p.Modules, p.Handlers.EntryPoints(), inits, projDir)
		top := path.Dir(m.Path)
		for i := 0; i < t.reach; i++ {
			top = path.Dir(top)
		}
		if groups[top] == nil {
			order = append(order, top)
		}
		groups[top] = append(groups[top], t)
	}
	var out []guardGroup
	for _, top := range order {
		ts := groups[top]
		common := path.Dir(ts[0].mod.Path)
		for _, t := range ts[1:] {
			common = commonDir(common, path.Dir(t.mod.Path))
		}
		for i := range ts {
			ts[i].up = depth(path.Dir(ts[i].mod.Path)) - depth(common)
		}
		out = append(out, guardGroup{file: path.Join(common, GuardModuleName+".py"), imports: ts})
	}
	return out
}

// guardTarget decides how module m is loaded (see importStyle) and how far
// up its package its imports can reach.
func guardTarget(m *pyast.Module, mods []*pyast.Module, entries []string, inits map[string]bool, projDir string) guardImport {
	t := guardImport{mod: m}
	dir := path.Dir(m.Path)
	hasRelative := false
	for n := range m.Nodes("import_from_statement") {
		if mod := n.ChildByFieldName("module_name"); mod != nil && mod.Kind() == "relative_import" {
			hasRelative = true
		}
	}
	pkg := entryPackage(m, entries)
	if pkg == "" {
		pkg = ownPackage(m, mods)
	}
	switch {
	case hasRelative && inits[dir]:
		t.style = relative
	case importsSiblingByTopName(m, mods):
		return t
	case pkg != "":
		// An entry point's package first: it is how the installed command
		// imports the module (not a src. fallback the module also tries).
		t.style, t.pkg = absolute, pkg
	case hasRelative || inits[dir] && dir != projDir:
		t.style = relative
	default:
		return t
	}
	// The regular packages above: each folder up to the guard's holds an
	// __init__.py; an absolute import reaches no higher than its first name.
	limit := -1
	if t.style == absolute {
		limit = strings.Count(pkg, ".")
	}
	for d := dir; inits[d] && d != projDir && inits[path.Dir(d)] && path.Dir(d) != projDir && path.Dir(d) != d; d = path.Dir(d) {
		if limit >= 0 && t.reach >= limit {
			break
		}
		t.reach++
	}
	return t
}

// entryPackage returns the dotted package through which a [project.scripts]
// entry point (entries: "pkg.main.cli") imports module m: the names before
// m's own are the folders above it (context_portal_mcp for
// context_portal_mcp.main:cli in src/context_portal_mcp/main.py, a folder
// with no __init__.py). "" when no entry point names m.
func entryPackage(m *pyast.Module, entries []string) string {
	folders := strings.Split(path.Dir(m.Path), "/")
	base := strings.TrimSuffix(path.Base(m.Path), ".py")
	for _, q := range entries {
		segs := strings.Split(q, ".")
		for j := len(segs) - 1; j >= 1; j-- {
			pkg := segs[:j]
			if !m.IsPackage() && segs[j] != base || j > len(folders) || !slices.Equal(folders[len(folders)-j:], pkg) {
				continue
			}
			if name := strings.Join(pkg, "."); importable(name) {
				return name
			}
		}
	}
	return ""
}

// ownPackage returns the dotted name by which module m imports its own
// package absolutely (awslabs.aws_doc_mcp_server for awslabs/aws_doc_mcp_server/server.py
// that imports awslabs.aws_doc_mcp_server.models): an import whose name is
// the folders above m followed by a module of the project in m's folder.
// "" when m imports no module of its folder that way.
func ownPackage(m *pyast.Module, mods []*pyast.Module) string {
	dir := path.Dir(m.Path)
	folders := strings.Split(dir, "/")
	match := func(full string) string {
		segs := strings.Split(full, ".")
		for j := 1; j < len(segs) && j <= len(folders); j++ {
			pkg := segs[:j]
			if !slices.Equal(folders[len(folders)-j:], pkg) || !importable(strings.Join(pkg, ".")) {
				continue
			}
			at := path.Join(dir, strings.Join(segs[j:], "/"))
			for _, o := range mods {
				if o != m && (o.Path == at+".py" || strings.HasPrefix(o.Path, at+"/")) {
					return strings.Join(pkg, ".")
				}
			}
		}
		return ""
	}
	for n := range m.Nodes("import_from_statement") {
		mod := n.ChildByFieldName("module_name")
		if mod == nil || mod.Kind() != "dotted_name" {
			continue
		}
		// from pkg.sub import x, and from pkg import sub (a module).
		for _, full := range m.ImportTargets(n) {
			if pkg := match(full); pkg != "" {
				return pkg
			}
		}
	}
	for n := range m.Nodes("import_statement") {
		for _, full := range m.ImportTargets(n) {
			if pkg := match(full); pkg != "" {
				return pkg
			}
		}
	}
	return ""
}

// oneFolder reports whether the paths are all in one folder.
func oneFolder(paths []string) bool {
	for _, p := range paths {
		if path.Dir(p) != path.Dir(paths[0]) {
			return false
		}
	}
	return true
}

// commonDir returns the nearest folder holding both a and b.
func commonDir(a, b string) string {
	for a != b {
		if depth(a) >= depth(b) {
			if path.Dir(a) == a {
				return a
			}
			a = path.Dir(a)
		} else {
			b = path.Dir(b)
		}
	}
	return a
}

func depth(d string) int {
	if d == "." || d == "/" || d == "" {
		return 0
	}
	return strings.Count(strings.Trim(d, "/"), "/") + 1
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

// firstImportOffset returns where a module's first import goes: after a BOM
// and the header (pystyle.HeaderEnd: the shebang and encoding comments, the
// module docstring, __future__ imports), before any other statement; lead is
// a newline to write first when that place is the end of a file with no
// final newline, and afterFuture says that __future__ imports come before
// it. Unlike pystyle.PlaceImport it does not sort the import among the
// others: the guard is imported first on purpose, and its line says
// "# isort: skip" so that isort and ruff's I rules leave it there.
func firstImportOffset(m *pyast.Module) (at int, lead string, afterFuture bool) {
	stmts := pyast.NamedChildren(m.Root)
	end := pystyle.HeaderEnd(stmts)
	for _, st := range stmts[:end] {
		afterFuture = afterFuture || st.Kind() == "future_import_statement"
	}
	switch i := end; {
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
	return at, lead, afterFuture
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
