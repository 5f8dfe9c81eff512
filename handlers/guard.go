package handlers

// The respond/cancel guard (SPEC section 1, the third remedy): code that runs
// before the server starts and replaces RequestResponder.respond() and
// .cancel() of mcp 1.x with functions that return early when the request was
// already answered (self._completed). With it, a handler that returns after a
// client's cancel cannot make the SDK answer twice, so a project whose guard
// is in place cannot crash that way.

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// ResponderClass is the qualified name of the class a guard patches.
const ResponderClass = "mcp.shared.session.RequestResponder"

// GuardedMethods are the methods a complete guard replaces.
var GuardedMethods = []string{"respond", "cancel"}

// GuardPatch is one replacement of a RequestResponder method.
type GuardPatch struct {
	Module *pyast.Module
	Stmt   *pyast.Node // the statement that installs it (assignment, setattr call, class swap)
	Method string      // respond or cancel
	// Target is the source text naming the patched class (RequestResponder,
	// session.RequestResponder), for fixes that patch the other method the
	// same way.
	Target string
	// Func is the replacement; Checks says whether it returns early when
	// self._completed is set.
	Func   FuncRef
	Checks bool
}

// Guard is the respond/cancel guard found in one module.
type Guard struct {
	Module  *pyast.Module
	Patches []*GuardPatch // in source order
	// Active says that the guard runs before the server starts: the module
	// is imported at import time (directly or transitively) by a module that
	// creates or runs the server, before it runs it, or is that module and
	// patches before run(). Why says why not, when it is not.
	Active bool
	Why    string
}

// Patch returns the guard's patch of method when it returns early on
// _completed, or nil. The last patch of a method in the module is the one
// that stays (source order stands for execution order).
func (g *Guard) Patch(method string) *GuardPatch {
	var last *GuardPatch
	for _, p := range g.Patches {
		if p.Method == method {
			last = p
		}
	}
	if last != nil && last.Checks {
		return last
	}
	return nil
}

// Stmt is the statement the guard is reported at: its respond patch, else
// its first patch.
func (g *Guard) Stmt() *pyast.Node {
	if p := g.Patch("respond"); p != nil {
		return p.Stmt
	}
	return g.Patches[0].Stmt
}

// Guards returns the modules of the project that patch RequestResponder,
// sorted by path.
func (ix *Index) Guards() []*Guard {
	if ix == nil {
		return nil
	}
	return ix.guards
}

// ActiveGuard returns the guard that closes the crash for the whole
// project: every process that serves (each call that starts a server, on
// each start) has a complete guard (respond and cancel patched with the
// _completed check, possibly in different modules) installed before it. It
// returns the one that patches respond, or nil. One server's guard says
// nothing of another's: see GuardOf.
func (ix *Index) ActiveGuard() *Guard {
	if ix == nil {
		return nil
	}
	return ix.projectGuard
}

// UnguardedStarts returns the modules of the project's starts that serve
// with no complete guard installed first, in path order (nil when the
// project has no guard).
func (ix *Index) UnguardedStarts() []*pyast.Module {
	if ix == nil {
		return nil
	}
	return ix.unguarded
}

// GuardOf returns the guard that closes the crash for code in f: every
// handler that reaches f is served only by processes that installed a
// complete guard first (see guardServers). A function no handler reaches
// is covered when the project is (ActiveGuard).
func (ix *Index) GuardOf(f *pyast.Function) *Guard {
	if ix == nil || ix.projectGuard == nil && len(ix.handlerGuard) == 0 {
		return nil
	}
	hs := ix.ReachedFrom(f)
	if len(hs) == 0 {
		return ix.projectGuard
	}
	var g *Guard
	for _, h := range hs {
		hg := ix.handlerGuard[h]
		if hg == nil {
			return nil
		}
		if g == nil {
			g = hg
		}
	}
	return g
}

// ServerSite is a place that creates an MCP server object.
type ServerSite struct {
	Module *pyast.Module
	Call   *pyast.Node
}

// RunsServer reports whether code of module m, at its top level or in one
// of its functions, starts serving a server (server.run(), run_stdio_async,
// ..., directly or through a project function it calls).
func (ix *Index) RunsServer(m *pyast.Module) bool {
	if ix == nil || ix.builder == nil || m == nil {
		return false
	}
	ix.runsMu.Lock()
	defer ix.runsMu.Unlock()
	if runs, ok := ix.runs[m]; ok {
		return runs
	}
	runs := ix.builder.moduleRunsServer(m)
	if ix.runs == nil {
		ix.runs = map[*pyast.Module]bool{}
	}
	ix.runs[m] = runs
	return runs
}

func (b *builder) moduleRunsServer(m *pyast.Module) bool {
	if b.runsServer(m, m.Root, 0) {
		return true
	}
	for _, f := range m.Funcs {
		if f.Body != nil && b.runsServer(m, f.Body, 0) {
			return true
		}
	}
	return false
}

// InEntryPackage reports whether module m is in the top-level package of
// one of the project's entry points ([project.scripts]): the code the
// installed command runs, rather than a demo or a script beside it.
func (ix *Index) InEntryPackage(m *pyast.Module) bool {
	if ix == nil || ix.builder == nil || m == nil || m.Name == "" {
		return false
	}
	for _, q := range ix.builder.cfg.EntryPoints {
		top, _, _ := strings.Cut(q, ".")
		if top != "" && (m.Name == top || strings.HasPrefix(m.Name, top+".")) {
			return true
		}
	}
	return false
}

// EntryPoints returns the qualified names of the functions the project's
// [project.scripts] entry points run ("pkg.server.main"): how an installed
// command imports the module that holds one.
func (ix *Index) EntryPoints() []string {
	if ix == nil || ix.builder == nil {
		return nil
	}
	return ix.builder.cfg.EntryPoints
}

// ServerSites returns the calls that construct a server, in module order.
func (ix *Index) ServerSites() []ServerSite {
	if ix == nil {
		return nil
	}
	return ix.servers
}

// ServingSites returns the constructions of the servers the project serves,
// outside tests (the guard fix imports the guard beside them, and a
// construction nothing in the project runs stands for a process of its own
// only when it is one of them, guardServers): those of servers that handlers are registered on,
// else those in modules that run a server, else any construction. A FastMCP
// subclass that registers its tools in __init__ is constructed by the entry
// point and by the tests alike, and a test may register a tool on a
// subclass of its own: the guard goes beside the entry point. A guard
// imported by a test only would not guard the server, so where only tests
// construct one (the server's own construction not recognised) there is no
// site and no guard fix. Handlers registered on a parameter (def
// register_tools(mcp: FastMCP)) name no server: then the module that builds
// the server and runs it (wandb's server.py) goes before a script that
// builds one only to list its tools (scripts/, sorting first).
func (ix *Index) ServingSites() []ServerSite {
	all := ix.ServerSites()
	var served, running []ServerSite
	for _, s := range all {
		for _, h := range ix.Handlers {
			if s.Module.Name != "" && strings.HasPrefix(h.Server, s.Module.Name+".") {
				served = append(served, s)
				break
			}
		}
		if ix.RunsServer(s.Module) {
			running = append(running, s)
		}
	}
	for _, sites := range [][]ServerSite{served, running, all} {
		var out []ServerSite
		for _, s := range sites {
			if !isTestModule(s.Module) {
				out = append(out, s)
			}
		}
		if len(out) > 0 {
			// The guard goes beside the first: the entry point's package
			// before demos and scripts that sort first (jvm-mcp-server's
			// demo/ beside src/jvm_mcp_server/).
			sort.SliceStable(out, func(i, j int) bool {
				return ix.InEntryPackage(out[i].Module) && !ix.InEntryPackage(out[j].Module)
			})
			return out
		}
	}
	return nil
}

// StartsWithout returns the modules outside tests that start serving (run a
// server at their top level, or hold a [project.scripts] entry point)
// without having loaded any of mods by then, in path order: a guard
// imported first in mods does not protect them. The guard fix imports it
// there too (a FastMCP.from_fastapi(app) server that the module runs is no
// ServerSite). Imports inside the entry function are not looked at: such a
// module is returned, and a guard import at its top is then redundant, not
// wrong.
func (ix *Index) StartsWithout(mods map[*pyast.Module]bool) []*pyast.Module {
	if ix == nil || ix.builder == nil {
		return nil
	}
	b := ix.builder
	var out []*pyast.Module
	seen := map[*pyast.Module]bool{}
	for _, s := range b.starts() {
		if s.stmt == nil && s.fn == nil || mods[s.mod] || seen[s.mod] || isTestModule(s.mod) {
			continue
		}
		loaded := b.executedBefore(s.mod, s.cut, s.stmt)
		found := false
		for m := range mods {
			found = found || loaded.must[m]
		}
		if !found {
			seen[s.mod] = true
			out = append(out, s.mod)
		}
	}
	return out
}

// StartLoading returns the module of the one start outside tests (a
// module that runs a server at its top level, or holds a [project.scripts]
// entry point) that loads module m before it serves: the process that
// serves the server m creates (a sub-server that module mounts, as
// awslabs' billing server mounts one per tools module). nil when m is a
// start itself, serving in a process of its own, when no start loads it,
// or when several do (a guard imported in m covers them all; one imported
// in either start would leave the others).
func (ix *Index) StartLoading(m *pyast.Module) *pyast.Module {
	if ix == nil || ix.builder == nil {
		return nil
	}
	b := ix.builder
	starts := b.starts()
	var one *pyast.Module
	for _, s := range starts {
		if s.mod == m && (s.stmt != nil || s.fn != nil) {
			return nil
		}
	}
	for _, s := range starts {
		if s.stmt == nil && s.fn == nil || s.mod == m || isTestModule(s.mod) {
			continue
		}
		if b.executedBefore(s.mod, s.cut, s.stmt).must[m] {
			if one != nil && one != s.mod {
				return nil
			}
			one = s.mod
		}
	}
	return one
}

// findGuards finds the guard patches of every module and decides whether
// each guard runs before the server starts.
func (b *builder) findGuards() {
	// b.out.servers: found by indexCalls.
	byMod := map[*pyast.Module]*Guard{}
	for _, m := range b.mods {
		for _, p := range b.patchesIn(m) {
			g := byMod[m]
			if g == nil {
				g = &Guard{Module: m}
				byMod[m] = g
				b.out.guards = append(b.out.guards, g)
			}
			g.Patches = append(g.Patches, p)
		}
	}
	sort.Slice(b.out.guards, func(i, j int) bool { return b.out.guards[i].Module.Path < b.out.guards[j].Module.Path })
	if len(b.out.guards) == 0 {
		return
	}
	b.activate()
}

// constructsServer reports whether a call constructs a server (an SDK or
// fastmcp server class, or a project subclass of one), given the names of
// its callee (resolveNames).
func (b *builder) constructsServer(ns names) bool {
	return b.serverClassOfNames(ns) != FrameworkUnknown
}

// patchesIn returns the patches installed by module m's top-level code,
// and by project functions that code calls (def install(): ...; install()).
func (b *builder) patchesIn(m *pyast.Module) []*GuardPatch {
	if !bytes.Contains(m.Src, []byte("RequestResponder")) {
		return nil
	}
	var out []*GuardPatch
	for _, st := range topLevel(m.Root) {
		if !neverRuns(m, st) { // a patch under `if False:` is none
			out = append(out, b.patchesOf(m, st)...)
		}
	}
	// Installed from a function: its statements, anywhere, count when the
	// function is called from module level (checked by activate through the
	// call's position); keep them in source order.
	for _, f := range m.Funcs {
		if f.Class != nil || f.Parent != nil {
			continue
		}
		for _, st := range funcStatements(f) {
			if !neverRuns(m, st) {
				out = append(out, b.patchesOf(m, st)...)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stmt.StartByte() < out[j].Stmt.StartByte() })
	return out
}

// patchesOf returns the patches one simple statement installs.
func (b *builder) patchesOf(m *pyast.Module, st *pyast.Node) []*GuardPatch {
	if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 {
		return nil
	}
	e := st.NamedChild(0)
	switch e.Kind() {
	case "assignment":
		left, right := pyast.Unparen(e.ChildByFieldName("left")), pyast.Unparen(e.ChildByFieldName("right"))
		if left == nil || right == nil {
			return nil
		}
		if left.Kind() == "pattern_list" || left.Kind() == "tuple_pattern" {
			ls, rs := pyast.NamedChildren(left), pyast.NamedChildren(right)
			if right.Kind() != "expression_list" && right.Kind() != "tuple" || len(ls) != len(rs) {
				return nil
			}
			var out []*GuardPatch
			for i := range ls {
				out = append(out, b.assignPatch(m, st, ls[i], rs[i])...)
			}
			return out
		}
		return b.assignPatch(m, st, left, right)
	case "call":
		// setattr(RequestResponder, "respond", f)
		if !nameResolves(m, pyast.Callee(e), "setattr") {
			return nil
		}
		args, _ := m.Args(e)
		if len(args) != 3 {
			return nil
		}
		var out []*GuardPatch
		for _, name := range attrNames(m, args[1]) {
			out = append(out, b.installs(m, st, args[0], name, args[2])...)
		}
		return out
	}
	return nil
}

// assignPatch handles `<target>.<method> = value` and the class swap
// `<module>.RequestResponder = Subclass`.
func (b *builder) assignPatch(m *pyast.Module, st, left, right *pyast.Node) []*GuardPatch {
	if left.Kind() != "attribute" {
		return nil
	}
	obj := left.ChildByFieldName("object")
	return b.installs(m, st, obj, m.Text(left.ChildByFieldName("attribute")), right)
}

// installs returns the patches of setting attribute name of obj to value.
func (b *builder) installs(m *pyast.Module, st, obj *pyast.Node, name string, value *pyast.Node) []*GuardPatch {
	if name == "RequestResponder" {
		// session.RequestResponder = Guarded: a subclass swapped in.
		for _, q := range m.Resolve(obj) {
			if q != "mcp.shared.session" {
				continue
			}
			c := b.projectClass(m, value)
			if c == nil || !b.subclassesResponder(c, 0) {
				return nil
			}
			var out []*GuardPatch
			for _, meth := range GuardedMethods {
				if f := b.method(c, meth, 0); f != nil && b.moduleOf[f] != nil {
					out = append(out, &GuardPatch{Module: m, Stmt: st, Method: meth, Target: m.Text(obj) + ".RequestResponder",
						Func: FuncRef{b.moduleOf[f], f}, Checks: returnsEarlyOnCompleted(b.moduleOf[f], f)})
				}
			}
			return out
		}
		return nil
	}
	if name != "respond" && name != "cancel" || !isResponder(m, obj) {
		return nil
	}
	p := &GuardPatch{Module: m, Stmt: st, Method: name, Target: m.Text(obj)}
	if r, ok := b.replacement(m, value); ok {
		p.Func, p.Checks = r, returnsEarlyOnCompleted(r.Module, r.Func)
	}
	return []*GuardPatch{p}
}

// isResponder reports whether obj names mcp.shared.session.RequestResponder:
// through imports and aliases, or through getattr(<mcp.shared.session>,
// "RequestResponder"[, default]), written in place or assigned to the
// variable obj names (a guard that probes the SDK before patching it).
func isResponder(m *pyast.Module, obj *pyast.Node) bool {
	if nameResolves(m, obj, ResponderClass) {
		return true
	}
	obj = pyast.Unparen(obj)
	if obj == nil {
		return false
	}
	if obj.Kind() != "identifier" {
		return getattrResponder(m, obj)
	}
	bs := m.ScopeAt(obj).Lookup(m.Text(obj))
	for _, b := range bs {
		if !getattrResponder(m, b.Value()) {
			return false
		}
	}
	return len(bs) > 0
}

// getattrResponder matches getattr(<mcp.shared.session>, "RequestResponder")
// with or without a default.
func getattrResponder(m *pyast.Module, v *pyast.Node) bool {
	v = pyast.Unparen(v)
	if v == nil || v.Kind() != "call" || !nameResolves(m, pyast.Callee(v), "getattr") {
		return false
	}
	args, _ := m.Args(v)
	if len(args) < 2 || len(args) > 3 {
		return false
	}
	name, ok := stringValue(m, args[1])
	return ok && name == "RequestResponder" && nameResolves(m, args[0], "mcp.shared.session")
}

// replacement resolves the value installed as a method: a project function,
// or a call of a project factory that returns a nested function
// (_guard(RequestResponder.respond) whose inner def is wrapped with
// functools.wraps).
func (b *builder) replacement(m *pyast.Module, value *pyast.Node) (FuncRef, bool) {
	value = pyast.Unparen(value)
	if value == nil {
		return FuncRef{}, false
	}
	if value.Kind() == "call" {
		// functools.wraps(orig)(f) and functools.update_wrapper(f, orig)
		// install f.
		callee := pyast.Unparen(pyast.Callee(value))
		args, _ := m.Args(value)
		if callee != nil && callee.Kind() == "call" && nameResolves(m, pyast.Callee(callee), "functools.wraps") && len(args) == 1 {
			return b.replacement(m, args[0])
		}
		if nameResolves(m, callee, "functools.update_wrapper") && len(args) >= 1 {
			return b.replacement(m, args[0])
		}
		for _, q := range m.Resolve(callee) {
			sym := b.lookup(q)
			if sym.fn == nil {
				continue
			}
			for _, ret := range pyast.Returns(sym.fn) {
				if ret.Kind() != "identifier" {
					continue
				}
				for _, inner := range sym.module.Funcs {
					if inner.Parent == sym.fn && inner.Name == sym.module.Text(ret) {
						return FuncRef{sym.module, inner}, true
					}
				}
			}
		}
		return FuncRef{}, false
	}
	for _, q := range m.Resolve(value) {
		if sym := b.lookup(q); sym.fn != nil {
			return FuncRef{sym.module, sym.fn}, true
		}
	}
	return FuncRef{}, false
}

// projectClass resolves a name to a project class.
func (b *builder) projectClass(m *pyast.Module, n *pyast.Node) *pyast.Class {
	for _, q := range m.Resolve(n) {
		if c := b.lookup(q).class; c != nil {
			return c
		}
	}
	return nil
}

// subclassesResponder reports whether c derives from RequestResponder,
// directly or through project classes.
func (b *builder) subclassesResponder(c *pyast.Class, depth int) bool {
	if depth > 8 {
		return false
	}
	cm := b.classMod[c]
	for _, base := range c.Bases {
		for _, q := range cm.Resolve(base) {
			if q == ResponderClass {
				return true
			}
			if bc := b.lookup(q).class; bc != nil && bc != c && b.subclassesResponder(bc, depth+1) {
				return true
			}
		}
	}
	return false
}

// returnsEarlyOnCompleted reports whether f starts by returning when its
// first parameter's _completed is set: a top-level
// `if self._completed: return` (or getattr(self, "_completed", False)),
// with nothing awaited before it.
func returnsEarlyOnCompleted(m *pyast.Module, f *pyast.Function) bool {
	if len(f.Params) == 0 || f.Body == nil {
		return false
	}
	self := f.Params[0].Name
	for _, st := range pyast.NamedChildren(f.Body) {
		if st.Kind() == "if_statement" && completedCheck(m, st.ChildByFieldName("condition"), self) && returnsOnly(m, st.ChildByFieldName("consequence")) {
			return true
		}
		awaits := false
		pyast.WalkCode(st, func(n *pyast.Node) bool {
			if n.Kind() == "await" {
				awaits = true
			}
			return !awaits
		})
		if awaits {
			return false
		}
	}
	return false
}

// completedCheck matches self._completed and getattr(self, "_completed", ...).
func completedCheck(m *pyast.Module, cond *pyast.Node, self string) bool {
	cond = pyast.Unparen(cond)
	if cond == nil {
		return false
	}
	switch cond.Kind() {
	case "attribute":
		obj := pyast.Unparen(cond.ChildByFieldName("object"))
		return obj.Kind() == "identifier" && m.Text(obj) == self && m.Text(cond.ChildByFieldName("attribute")) == "_completed"
	case "call":
		if !nameResolves(m, pyast.Callee(cond), "getattr") {
			return false
		}
		args, _ := m.Args(cond)
		if len(args) < 2 || args[0].Kind() != "identifier" || m.Text(args[0]) != self {
			return false
		}
		name, ok := stringValue(m, args[1])
		return ok && name == "_completed"
	}
	return false
}

// returnsOnly reports whether a block ends with a bare `return` (or
// `return None`) and awaits nothing.
func returnsOnly(m *pyast.Module, blk *pyast.Node) bool {
	stmts := pyast.NamedChildren(blk)
	for len(stmts) > 0 && stmts[len(stmts)-1].Kind() == "comment" {
		stmts = stmts[:len(stmts)-1]
	}
	if len(stmts) == 0 {
		return false
	}
	last := stmts[len(stmts)-1]
	if last.Kind() != "return_statement" {
		return false
	}
	if v := last.NamedChild(0); v != nil && !(v.Kind() == "none") {
		return false
	}
	awaits := false
	pyast.WalkCode(blk, func(n *pyast.Node) bool {
		awaits = awaits || n.Kind() == "await"
		return !awaits
	})
	return !awaits
}

// nameResolves reports whether expression n can refer to qualified name q.
func nameResolves(m *pyast.Module, n *pyast.Node, q string) bool {
	for _, r := range m.Resolve(n) {
		if r == q {
			return true
		}
	}
	return false
}

// attrNames returns the attribute names a setattr name argument can hold:
// a string literal, or the variable of an enclosing loop over string
// literals (for name in ("respond", "cancel"): setattr(cls, name, ...)).
func attrNames(m *pyast.Module, n *pyast.Node) []string {
	if v, ok := stringValue(m, n); ok {
		return []string{v}
	}
	n = pyast.Unparen(n)
	if n == nil || n.Kind() != "identifier" {
		return nil
	}
	for loop := pyast.Ancestor(n, "for_statement"); loop != nil; loop = pyast.Ancestor(loop, "for_statement") {
		left, right := loop.ChildByFieldName("left"), pyast.Unparen(loop.ChildByFieldName("right"))
		if left == nil || left.Kind() != "identifier" || m.Text(left) != m.Text(n) || right == nil {
			continue
		}
		if right.Kind() != "tuple" && right.Kind() != "list" && right.Kind() != "set" {
			return nil
		}
		var out []string
		for _, el := range pyast.NamedChildren(right) {
			if v, ok := stringValue(m, el); ok {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}

// stringValue returns the value of a plain string literal.
func stringValue(m *pyast.Module, n *pyast.Node) (string, bool) {
	n = pyast.Unparen(n)
	if n == nil || n.Kind() != "string" {
		return "", false
	}
	var out strings.Builder
	for _, c := range pyast.NamedChildren(n) {
		switch c.Kind() {
		case "string_start":
			if strings.ContainsAny(m.Text(c), "fFbB") {
				return "", false
			}
		case "string_content":
			out.WriteString(m.Text(c))
		case "interpolation", "escape_sequence":
			return "", false
		}
	}
	return out.String(), true
}

// topLevel returns the simple statements that run when a module is
// imported: module-level statements and those inside top-level if, try,
// with and for blocks (not function or class bodies), in source order.
func topLevel(root *pyast.Node) []*pyast.Node {
	var out []*pyast.Node
	var walk func(n *pyast.Node)
	walk = func(n *pyast.Node) {
		for _, c := range pyast.NamedChildren(n) {
			switch c.Kind() {
			case "function_definition", "class_definition", "decorated_definition", "comment":
			case "if_statement", "elif_clause", "else_clause", "try_statement", "except_clause", "finally_clause",
				"with_statement", "for_statement", "while_statement", "block":
				walk(c)
			default:
				out = append(out, c)
			}
		}
	}
	walk(root)
	return out
}

// funcStatements returns the simple statements of f's body at any depth of
// if/try/with blocks (not nested definitions).
func funcStatements(f *pyast.Function) []*pyast.Node { return topLevel(f.Body) }

// runMethods are the server methods that start serving.
var runMethods = map[string]bool{
	"run": true, "run_async": true, "run_stdio_async": true, "run_sse_async": true,
	"run_streamable_http_async": true, "run_http_async": true,
}

// start is where serving begins: a module that runs the server at its top
// level (stmt, the first statement that does, at offset cut), a module that
// creates a server (a launcher imports it and serves: cut is its end), or an
// entry-point function (fn, called after its module ran).
type start struct {
	mod  *pyast.Module
	cut  int
	stmt *pyast.Node
	fn   *FuncRef
}

// starts returns the project's starts, in path order.
func (b *builder) starts() []start {
	cuts := map[*pyast.Module]start{}
	for _, s := range b.out.servers {
		cuts[s.Module] = start{mod: s.Module, cut: len(s.Module.Src)}
	}
	for _, m := range b.mods {
		for _, st := range topLevel(m.Root) {
			if !neverRuns(m, st) && b.runsServer(m, st, 0) {
				cuts[m] = start{mod: m, cut: int(st.StartByte()), stmt: st}
				break
			}
		}
	}
	out := make([]start, 0, len(cuts))
	for _, s := range cuts {
		out = append(out, s)
	}
	for _, q := range b.cfg.EntryPoints {
		if sym := b.lookup(q); sym.fn != nil {
			out = append(out, start{mod: sym.module, cut: len(sym.module.Src), fn: &FuncRef{sym.module, sym.fn}})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].mod.Path < out[j].mod.Path })
	return out
}

// servingStart is a start with the calls that serve on its path.
type servingStart struct {
	start
	serves []serving
	end    flow // what ran on the path of the start, after it
}

// activate decides, for each guard, whether it runs before the server
// starts: for some start, on every path from it to a call that serves (see
// servePath), the guard's module was imported, or one of its patch
// statements ran, or a module that ran calls its install function at its top
// level.
func (b *builder) activate() {
	starts := b.starts()
	if len(starts) == 0 {
		for _, g := range b.out.guards {
			g.Why = "no module of the project creates or runs an MCP server"
		}
		return
	}
	var ts []servingStart
	for _, s := range starts {
		before := b.executedBefore(s.mod, s.cut, s.stmt)
		in := flow{must: ran{}, may: ran{}}
		for m := range before.may {
			in.may[m] = true
			if before.must[m] {
				in.must[m] = true
			}
		}
		sp := b.newServePath()
		// The start module's own top-level code before the cut runs
		// first, with the functions it calls (configure() importing the
		// guard). A statement counts for every path only where it
		// dominates the statement that serves (dominates: not under an if,
		// in an except handler or a loop body that does not also hold
		// it), and not at all where it never runs (`if TYPE_CHECKING:`).
		// What it may serve is not this start's: the cut decides where
		// serving begins.
		for _, st := range topLevel(s.mod.Root) {
			if int(st.StartByte()) >= s.cut {
				break
			}
			switch {
			case neverRuns(s.mod, st):
			case dominates(s.mod, st, s.stmt):
				in = sp.simple(s.mod, st, in, 0)
			default:
				for k := range sp.simple(s.mod, st, in.clone(), 0).may {
					in.may[k] = true
				}
			}
		}
		sp.serves = nil
		end := in
		switch {
		case s.stmt != nil:
			end = sp.simple(s.mod, s.stmt, in.clone(), 0)
		case s.fn != nil:
			end = sp.call(*s.fn, in.clone(), 0)
		}
		serves := sp.serves
		if len(serves) == 0 {
			if s.fn != nil {
				continue // an entry point that does not serve
			}
			// A launcher serves the server this module creates; or the
			// statement runs it in a way the walk does not follow.
			serves = []serving{{mod: s.mod, call: s.stmt, at: in}}
		}
		if s.stmt != nil {
			// What the rest of the module runs after the server stopped,
			// calls included: a guard installed there is late.
			rest := b.newServePath()
			for _, st := range topLevel(s.mod.Root) {
				if st.StartByte() > s.stmt.StartByte() && !neverRuns(s.mod, st) {
					end = rest.simple(s.mod, st, end, 0)
				}
			}
		}
		ts = append(ts, servingStart{s, serves, end})
	}
	pointsOf := map[*Guard][]point{}
	for _, g := range b.out.guards {
		points := b.installPoints(g)
		pointsOf[g] = points
		installed := func(s start, r ran, must bool) bool { return installedAt(g, points, s, r, must) }
		somePaths, late := "", ""
		for _, t := range ts {
			all, some := true, false
			for _, sv := range t.serves {
				all = all && installed(t.start, sv.at.must, true)
				some = some || installed(t.start, sv.at.may, false)
			}
			for _, sv := range t.serves {
				if installed(t.start, sv.at.must, true) {
					continue
				}
				if somePaths == "" && some {
					somePaths = fmt.Sprintf("%s runs the server at line %d on a path that does not install it first (it "+
						"is installed only on some paths: under a condition, in a loop, in an except handler or before "+
						"another call that serves)", sv.mod.Path, servingLine(sv, t.start))
				}
			}
			if all {
				g.Active = true
				break
			}
			if late != "" || t.stmt == nil && t.fn == nil {
				continue
			}
			// Is it installed after the server ran: later in the function
			// that runs it, or later in the module?
			sv := t.serves[0]
			after, verb := installed(t.start, t.end.may, false), "installs"
			if t.end.may[g.Module] && !sv.at.may[g.Module] {
				verb = "imports"
			}
			if !after && t.stmt != nil {
				verb = "imports"
				rest := b.executedBefore(t.mod, len(t.mod.Src), nil)
				for _, pt := range points {
					after = after || pt.mod == t.mod || rest.may[pt.mod]
				}
			}
			if after {
				late = fmt.Sprintf("%s %s it only after line %d, where it runs the server", sv.mod.Path, verb, servingLine(sv, t.start))
			}
		}
		switch {
		case g.Active:
		case somePaths != "":
			g.Why = somePaths
		case late != "":
			g.Why = late
		case len(points) == 0:
			g.Why = "the function that installs it is never called at import time or before the server runs"
		default:
			g.Why = "no module that creates or runs the server imports it before the server starts"
		}
	}
	b.guardServers(ts, pointsOf)
}

// installedAt reports whether guard g (installed at points) has run by a
// point of start s where r ran: on every path (must) or on some path, as r
// is.
func installedAt(g *Guard, points []point, s start, r ran, must bool) bool {
	for _, pt := range points {
		if pt.mod == s.mod && pt.off < s.cut && (!must || dominates(pt.mod, pt.st, s.stmt)) ||
			pt.mod != s.mod && r[pt.mod] && (!must || dominates(pt.mod, pt.st, nil)) {
			return true
		}
	}
	for _, p := range g.Patches {
		if r[p.Stmt.Id()] {
			return true
		}
	}
	return false
}

// A process serves the handlers whose registering modules it has loaded
// when it starts serving; a guard protects only those of the processes it
// was installed in first. guardServers decides, for each serving call of
// each start, which complete guard (respond and cancel patched with the
// _completed check, possibly by different modules) has run on every path to
// it, and from that which guard protects each handler: the one that every
// serving that loads the handler's registering module installed first. A
// start that only creates a server (a launcher elsewhere imports it and
// serves: `mcp run server.py`) stands for the process only when no start
// that runs a server loads its module, and only when it is one of
// ServingSites (not a script that builds a server to list its tools,
// where a served one exists: the guard fix leaves it alone too). A handler
// no serving loads is protected when every serving of the project is. The project is guarded (ActiveGuard) when
// every serving is. Servings in test modules count only where nothing
// else serves.
func (b *builder) guardServers(ts []servingStart, pointsOf map[*Guard][]point) {
	type unit struct {
		mod   *pyast.Module // the start's
		loads map[*pyast.Module]bool
		guard *Guard
	}
	var units []unit
	creators := map[*pyast.Module]unit{}
	for _, t := range ts {
		for _, sv := range t.serves {
			u := unit{mod: t.mod, loads: map[*pyast.Module]bool{t.mod: true}}
			for k := range sv.at.may {
				if m, ok := k.(*pyast.Module); ok {
					u.loads[m] = true
				}
			}
			cancel := false
			for _, g := range b.out.guards {
				if !installedAt(g, pointsOf[g], t.start, sv.at.must, true) {
					continue
				}
				if u.guard == nil && g.Patch("respond") != nil {
					u.guard = g
				}
				cancel = cancel || g.Patch("cancel") != nil
			}
			if !cancel {
				u.guard = nil
			}
			if t.stmt == nil && t.fn == nil {
				creators[t.mod] = u
			} else {
				units = append(units, u)
			}
		}
	}
	serving := map[*pyast.Module]bool{}
	for _, s := range b.out.ServingSites() {
		serving[s.Module] = true
	}
	for _, t := range ts {
		c, ok := creators[t.mod]
		if !ok {
			continue
		}
		delete(creators, t.mod)
		superseded := !serving[t.mod] // a script that builds a server only to list its tools
		for _, u := range units {
			superseded = superseded || u.loads[t.mod]
		}
		if !superseded {
			units = append(units, c)
		}
	}
	// A test's server runs under the test runner, not as the project's
	// server: a test that builds one without the guard leaves production
	// guarded (unless only tests serve).
	var prod []unit
	for _, u := range units {
		if !isTestModule(u.mod) {
			prod = append(prod, u)
		}
	}
	if len(prod) > 0 {
		units = prod
	}
	if len(units) == 0 {
		return
	}
	all := units[0].guard
	for _, u := range units {
		if u.guard == nil {
			all = nil
			break
		}
	}
	b.out.projectGuard = all
	seen := map[*pyast.Module]bool{}
	for _, u := range units {
		if u.guard == nil && !seen[u.mod] {
			seen[u.mod] = true
			b.out.unguarded = append(b.out.unguarded, u.mod)
		}
	}
	sort.Slice(b.out.unguarded, func(i, j int) bool { return b.out.unguarded[i].Path < b.out.unguarded[j].Path })
	b.out.handlerGuard = map[*Handler]*Guard{}
	for _, h := range b.out.Handlers {
		hm := h.SiteModule
		if hm == nil {
			hm = h.Module
		}
		var g *Guard
		served := false
		for _, u := range units {
			if !u.loads[hm] {
				continue
			}
			if !served {
				g, served = u.guard, true
			}
			if u.guard == nil {
				g = nil
				break
			}
		}
		if !served {
			g = all
		}
		if g != nil {
			b.out.handlerGuard[h] = g
		}
	}
}

// servingLine is the line of a call that serves (of the start's statement
// when the walk found none).
func servingLine(sv serving, s start) int {
	if sv.call != nil {
		return sv.mod.Pos(int(sv.call.StartByte())).Line
	}
	return s.mod.Pos(s.cut).Line
}

// loaded is the project modules whose top-level code has run: on every
// path (must) and on some path (may: imported under a condition, in an
// except handler or a loop body). must is a subset of may.
type loaded struct{ must, may map[*pyast.Module]bool }

func newLoaded() loaded {
	return loaded{map[*pyast.Module]bool{}, map[*pyast.Module]bool{}}
}

// executedBefore returns the project modules whose top-level code has run
// when module start reaches offset cut, statement at (nil: its end): its
// packages' __init__ modules (importing pkg.server runs pkg/__init__.py
// first) and what start imports before cut, transitively. An import counts
// as run on every path only where it dominates at (dominates); one that can
// never run (`if TYPE_CHECKING:`) does not count at all.
// The answer is shared: callers only read it.
func (b *builder) executedBefore(start *pyast.Module, cut int, at *pyast.Node) loaded {
	k := ranKey{start, cut, at}
	b.lazy.ranMu.Lock()
	defer b.lazy.ranMu.Unlock()
	if l, ok := b.lazy.ran[k]; ok {
		return l
	}
	l := b.runBefore(start, cut, at)
	if b.lazy.ran == nil {
		b.lazy.ran = map[ranKey]loaded{}
	}
	b.lazy.ran[k] = l
	return l
}

func (b *builder) runBefore(start *pyast.Module, cut int, at *pyast.Node) loaded {
	l := newLoaded()
	parts := strings.Split(start.Name, ".")
	for i := 1; i < len(parts); i++ {
		if pkg := b.module(strings.Join(parts[:i], ".")); pkg != nil && pkg != start {
			b.load(pkg, true, l)
		}
	}
	b.importsBefore(start, cut, at, true, l)
	return l
}

type point struct {
	mod *pyast.Module
	off int
	st  *pyast.Node // the top-level statement
}

// installPoints returns where a guard's patches run at import time.
func (b *builder) installPoints(g *Guard) []point {
	var out []point
	for _, p := range g.Patches {
		f := g.Module.FuncAt(p.Stmt)
		if f == nil {
			out = append(out, point{g.Module, int(p.Stmt.StartByte()), p.Stmt})
			continue
		}
		for _, m := range b.mods {
			for _, st := range topLevel(m.Root) {
				if neverRuns(m, st) {
					continue
				}
				found := false
				pyast.WalkCode(st, func(n *pyast.Node) bool {
					if n.Kind() == "call" {
						for _, r := range b.engineOf[n] {
							found = found || r.Func == f
						}
					}
					return !found
				})
				if found {
					out = append(out, point{m, int(st.StartByte()), st})
				}
			}
		}
	}
	return out
}

// importsBefore adds to l the project modules whose top-level code has run
// when module m reaches offset cut, statement at (nil: its end): those m
// imports before cut, and everything they import, transitively (packages'
// __init__ included). With definite false, m itself may not have run, so
// nothing it imports is certain.
func (b *builder) importsBefore(m *pyast.Module, cut int, at *pyast.Node, definite bool, l loaded) {
	for _, st := range topLevel(m.Root) {
		if int(st.StartByte()) >= cut {
			break
		}
		if neverRuns(m, st) {
			continue
		}
		b.imports(m, st, definite && dominates(m, st, at), l)
	}
}

// imports adds to l the project modules whose top-level code runs when
// statement st of m runs, if it is an import: the modules it names, their
// packages, and what they import, transitively. definite says that st runs
// on every path that matters.
func (b *builder) imports(m *pyast.Module, st *pyast.Node, definite bool, l loaded) {
	if st.Kind() != "import_statement" && st.Kind() != "import_from_statement" {
		return
	}
	for _, q := range m.ImportTargets(st) {
		for q != "" {
			if im := b.module(q); im != nil {
				b.load(im, definite, l)
			}
			i := strings.LastIndexByte(q, '.')
			if i < 0 {
				break
			}
			q = q[:i]
		}
	}
}

// load adds module im to l, and what its top-level code imports. Each
// module is walked at most twice: once as may, once as must.
func (b *builder) load(im *pyast.Module, definite bool, l loaded) {
	if definite {
		if l.must[im] {
			return
		}
		l.must[im], l.may[im] = true, true
	} else {
		if l.may[im] {
			return
		}
		l.may[im] = true
	}
	b.importsBefore(im, len(im.Src), nil, definite, l)
}

// runsServer reports whether statement st runs a server: a call of a run
// method on a server object, in st or in a project function st calls or
// passes (anyio.run(main)).
func (b *builder) runsServer(m *pyast.Module, st *pyast.Node, depth int) bool {
	if depth > 3 {
		return false
	}
	found := false
	pyast.WalkCode(st, func(n *pyast.Node) bool {
		if found {
			return false
		}
		switch n.Kind() {
		case "call":
			callee := pyast.Unparen(pyast.Callee(n))
			if callee != nil && callee.Kind() == "attribute" && runMethods[m.TextView(callee.ChildByFieldName("attribute"))] {
				if fw, _ := b.serverOf(m, callee.ChildByFieldName("object")); fw != FrameworkUnknown {
					found = true
					return false
				}
			}
			for _, r := range b.engineOf[n] {
				if b.funcRunsServer(r, depth) {
					found = true
					return false
				}
			}
		case "identifier":
			if p := n.Parent(); p != nil && p.Kind() == "argument_list" {
				for _, r := range b.engineFuncs(m, n) {
					if b.funcRunsServer(r, depth) {
						found = true
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

func (b *builder) funcRunsServer(r FuncRef, depth int) bool {
	if r.Func.Body == nil {
		return false
	}
	k := funcRunsKey{r.Func, depth}
	if v, ok := b.lazy.funcRuns.Load(k); ok {
		return v.(bool)
	}
	b.lazy.funcRunsComputed.Add(1)
	runs := b.runsServer(r.Module, r.Func.Body, depth+1)
	b.lazy.funcRuns.Store(k, runs)
	return runs
}
