package handlers

import (
	"bytes"
	"maps"
	"path"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Live code: a registration inside a function (def register(mcp):
// @mcp.tool() def f(): ...) registers a handler only when something runs
// that function. The roots are what Python or a launcher runs: the
// module-level code of every module that can be imported or run (all but a
// module that registers on an imported server and that nothing live imports:
// liveModules),
// the configured entry points ([project.scripts]), functions named main,
// factories that return a server (fastmcp run mod:factory), decorated
// functions (a framework calls them: @click.command, @app.on_event), methods
// of classes with a base outside the project (the base class calls them)
// and dunder methods other than __init__ (constructing the class is a call),
// and, in a project that constructs no server of its own outside its tests
// (a library: constructsOwnServer), the names listed in __all__. From there
// a function is live when live code calls it or refers to it (a list of registration
// functions looped over, a callback; a call of a method also runs its
// overrides in the project's subclasses: a base class's __init__ calling
// self._register_tools()), or, for a method, when live code names
// an attribute of that name on any object (conservative: the object's type
// is often unknown), and for any function, when live code calls an attribute
// of that name on a value the index cannot follow (mod.register(mcp) with
// mod from a loop over modules or importlib). Imports alone do not count. Code in test modules counts
// only for registrations made in test modules.

// liveSets holds the live functions, computed once on demand.
type liveSets struct {
	edges    map[*pyast.Function][]*pyast.Function // function -> functions it calls or refers to
	modEdges map[*pyast.Module][]*pyast.Function   // module-level code -> functions
	nontest  map[*pyast.Function]bool
	all      map[*pyast.Function]bool
	// modules whose top-level code runs, without and with test modules
	modsNontest, modsAll map[*pyast.Module]bool
	// plugins memoizes pluginModules, dynamic importsDynamically: the
	// closure with test modules needs them again.
	plugins map[*pyast.Module]bool
	dynamic map[*pyast.Module]bool
}

// dropUnreachedRegistrations removes handlers whose registration site is in
// a function that no live code runs, and the registrations whose handler
// the analysis cannot tell (unfound) that never run either.
func (b *builder) dropUnreachedRegistrations() {
	var live *liveSets
	runs := func(sm *pyast.Module, site *pyast.Node) bool {
		if live == nil {
			live = b.liveSets()
		}
		return b.siteRuns(sm, site, live)
	}
	kept := b.out.Handlers[:0]
	for _, h := range b.out.Handlers {
		if h.SiteModule == nil || h.Site == nil || runs(h.SiteModule, h.Site) {
			kept = append(kept, h)
		}
	}
	b.out.Handlers = kept
	unfound := b.unfound[:0]
	for _, u := range b.unfound {
		if runs(u.module, u.call) {
			unfound = append(unfound, u)
		}
	}
	b.unfound = unfound
}

// siteRuns reports whether registration site site of module sm runs: it is
// at module level (or in a class body there) of a module that runs, or in
// a function live code runs; not in a test that builds a server only to
// look at it, nor under if False: / if TYPE_CHECKING:.
func (b *builder) siteRuns(sm *pyast.Module, site *pyast.Node, live *liveSets) bool {
	if b.unservedTestServer(sm, site) || unservedTestComponent(sm, site) || neverRuns(sm, site) {
		return false
	}
	f := sm.FuncAt(site)
	if f == nil && live.modsNontest[sm] || f != nil && live.nontest[f] {
		return true
	}
	if !isTestModule(sm) {
		return false
	}
	if live.all == nil {
		live.all, live.modsAll = live.closure(b, true)
	}
	return f == nil && live.modsAll[sm] || f != nil && live.all[f]
}

func (b *builder) liveSets() *liveSets {
	l := &liveSets{edges: map[*pyast.Function][]*pyast.Function{}, modEdges: map[*pyast.Module][]*pyast.Function{}}
	names := map[string]bool{}
	methods := map[string][]*pyast.Function{}
	byName := map[string][]*pyast.Function{} // module-level functions and methods
	for _, m := range b.mods {
		for _, c := range m.Classes { // constructing a class runs __init__
			names[c.Name] = true
		}
		for _, f := range m.Funcs {
			names[f.Name] = true
			if f.Class != nil {
				methods[f.Name] = append(methods[f.Name], f)
			}
			if f.Parent == nil {
				byName[f.Name] = append(byName[f.Name], f)
			}
			if f.Parent != nil {
				l.edges[f.Parent] = append(l.edges[f.Parent], f)
			}
		}
	}
	// Each module's references, on the builder's workers; merged in module
	// order (a function's edges all come from its own module).
	type refs struct {
		funcs [][]*pyast.Function // by m.Funcs index, from the walk
		top   []*pyast.Function   // from module-level code
	}
	found := make([]refs, len(b.mods))
	b.forEachModule(func(w *builder, i int) {
		found[i].funcs, found[i].top = w.liveRefs(b.mods[i], names, methods, byName)
	})
	for i, m := range b.mods {
		for j, to := range found[i].funcs {
			if len(to) > 0 {
				f := m.Funcs[j]
				l.edges[f] = append(l.edges[f], to...)
			}
		}
		if found[i].top != nil {
			l.modEdges[m] = found[i].top
		}
	}
	l.nontest, l.modsNontest = l.closure(b, false)
	return l
}

// liveRefs returns the project functions the code of module m refers to
// (calls, callbacks, attributes of their names: see liveSets), by the
// function whose code refers to them (indexes of m.Funcs), and those its
// module-level code refers to.
func (b *builder) liveRefs(m *pyast.Module, names map[string]bool, methods, byName map[string][]*pyast.Function) (funcs [][]*pyast.Function, top []*pyast.Function) {
	funcs = make([][]*pyast.Function, len(m.Funcs))
	index := func(f *pyast.Function) int { // m.Funcs is in document order
		return sort.Search(len(m.Funcs), func(j int) bool { return m.Funcs[j].Node.StartByte() >= f.Node.StartByte() })
	}
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "import_statement", "import_from_statement", "future_import_statement":
			return false
		case "identifier":
			if !names[m.TextView(n)] && b.engineCalleesOf(n) == nil || definitionName(n) {
				return false
			}
		case "attribute":
			attr := n.ChildByFieldName("attribute")
			if attr == nil || !names[m.TextView(attr)] && b.engineCalleesOf(n) == nil {
				return true
			}
		default:
			return true
		}
		var to []*pyast.Function
		if r, ok := b.funcOf(m, n); ok {
			to = append(to, r.Func)
			if obj, attr := lastAttr(m, n); obj != nil && r.Func.Class != nil && r.Func.Name == attr {
				// self._register_tools() in a base class's __init__ runs
				// the override of the subclass being built.
				for _, o := range b.overrides(r.Func.Class, attr) {
					to = append(to, o.Func)
				}
			}
		} else if n.Kind() == "attribute" && len(b.engineCalleesOf(n)) == 0 {
			// An attribute the engine resolves (for mod in [a, b]:
			// mod.register(mcp)) runs what it says, added below.
			attr := m.Text(n.ChildByFieldName("attribute"))
			if unknownReceiver(m, n.ChildByFieldName("object")) {
				// mod.register(mcp) for mod in a loop, from importlib,
				// a parameter: any project function of that name.
				to = append(to, byName[attr]...)
			} else {
				to = append(to, methods[attr]...)
			}
		}
		// What the engine says the call runs (a function imported under
		// another name, taken out of a dict a function returns).
		for _, r := range b.engineCalleesOf(n) {
			to = append(to, r.Func)
		}
		if len(to) > 0 && neverRuns(m, n) {
			to = nil // a call under if False: runs nothing
		}
		if len(to) > 0 {
			if f := m.FuncAt(n); f == nil {
				top = append(top, to...)
			} else {
				j := index(f)
				funcs[j] = append(funcs[j], to...)
			}
		}
		return true
	})
	return funcs, top
}

// engineCalleesOf returns the functions the engine says a call runs when n
// is its callee.
func (b *builder) engineCalleesOf(n *pyast.Node) []FuncRef {
	p := n.Parent()
	if p == nil || p.Kind() != "call" {
		return nil
	}
	if c := pyast.Callee(p); c == nil || c.Id() != n.Id() {
		return nil
	}
	return b.engineOf[p]
}

// unknownReceiver reports whether the object of an attribute is a value
// whose origin the index cannot follow: a call's result
// (importlib.import_module(name).register), a subscript (MODULES[name]), a
// name not bound in scope (a loop variable) or an unannotated parameter.
func unknownReceiver(m *pyast.Module, obj *pyast.Node) bool {
	obj = pyast.Unparen(obj)
	if obj == nil {
		return false
	}
	switch obj.Kind() {
	case "call", "subscript":
		return true
	case "identifier":
		bs := m.ScopeAt(obj).Lookup(m.TextView(obj))
		if len(bs) == 0 {
			return !builtinNames[m.TextView(obj)]
		}
		for _, bd := range bs {
			if bd.Kind != pyast.BindParam || len(bd.Types()) > 0 {
				return false
			}
		}
		return true
	}
	return false
}

// definitionName reports whether an identifier is the name a def, class or
// parameter binds, or a keyword argument's name: not a use of a function.
func definitionName(n *pyast.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Kind() {
	case "function_definition", "class_definition", "keyword_argument":
		return p.ChildByFieldName("name") != nil && p.ChildByFieldName("name").Id() == n.Id()
	case "parameters", "default_parameter", "typed_parameter", "typed_default_parameter":
		return true
	}
	return false
}

// closure returns the functions live code runs, from the roots of the
// project's modules (test modules too when tests is set). With test modules,
// it goes on from the closure without them: its modules are among the live
// ones (liveModules only admits more), so their roots and all they run are
// live already.
func (l *liveSets) closure(b *builder, tests bool) (map[*pyast.Function]bool, map[*pyast.Module]bool) {
	mods := l.liveModules(b, tests)
	live := map[*pyast.Function]bool{}
	var done map[*pyast.Module]bool // modules whose roots are in live
	if tests && l.nontest != nil {
		maps.Copy(live, l.nontest)
		done = l.modsNontest
	}
	var queue []*pyast.Function
	push := func(fs ...*pyast.Function) {
		for _, f := range fs {
			if !live[f] {
				live[f] = true
				queue = append(queue, f)
			}
		}
	}
	entry := map[*pyast.Function]bool{}
	for _, q := range b.cfg.EntryPoints {
		if sym := b.lookup(q); sym.fn != nil {
			entry[sym.fn] = true
		}
	}
	drain := func() {
		for len(queue) > 0 {
			f := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			push(l.edges[f]...)
		}
	}
	for f := range entry {
		push(f)
	}
	// The roots that take resolving names across the project to know
	// (resolvedRoot) are looked for only among the functions the other
	// roots do not run: most functions are live by then.
	var rest []FuncRef
	ownServer := b.constructsOwnServer()
	for _, m := range b.mods {
		if !mods[m] || done[m] {
			continue
		}
		push(l.modEdges[m]...)
		var exported map[string]bool
		if !ownServer || isTestModule(m) {
			exported = dunderAll(m)
		}
		for _, f := range m.Funcs {
			if b.plainRoot(m, f, entry) || (f.Parent == nil && f.Class == nil && exported[f.Name]) {
				push(f)
			} else {
				rest = append(rest, FuncRef{m, f})
			}
		}
	}
	drain()
	for _, r := range rest {
		if !live[r.Func] && b.resolvedRoot(r.Module, r.Func) {
			push(r.Func)
			drain()
		}
	}
	return live, mods
}

// liveModules returns the modules whose top-level code runs. Any module
// can be run or imported by something the index does not see (python -m,
// uvicorn mod:app, a launcher), so every module is a root but one kind: a
// module that registers handlers at its top level on a server it imports
// from another project module (from app import mcp; @mcp.tool() ...), with
// no `if __name__ == "__main__":` and no top-level .run(...) call, runs only
// when live code imports it. Importing a.b also runs a's __init__. When live
// code imports modules dynamically (importlib, pkgutil, runpy, __import__)
// every module counts. Test modules count only when tests is set.
func (l *liveSets) liveModules(b *builder, tests bool) map[*pyast.Module]bool {
	live := map[*pyast.Module]bool{}
	var queue []*pyast.Module
	push := func(m *pyast.Module) {
		if m != nil && !live[m] && (tests || !isTestModule(m)) {
			live[m] = true
			queue = append(queue, m)
		}
	}
	if l.plugins == nil {
		l.plugins, l.dynamic = b.pluginModules(), map[*pyast.Module]bool{}
		for _, m := range b.mods {
			if importsDynamically(m) {
				l.dynamic[m] = true
			}
		}
	}
	dynamic := false
	for _, m := range b.mods {
		if !l.plugins[m] {
			push(m)
		}
		if (tests || !isTestModule(m)) && l.dynamic[m] {
			dynamic = true
		}
	}
	if dynamic {
		for _, m := range b.mods {
			push(m)
		}
		return live
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		for _, kind := range []string{"import_statement", "import_from_statement"} {
			for n := range m.Nodes(kind) {
				for _, q := range m.ImportTargets(n) {
					for ; q != ""; q = parentName(q) {
						push(b.module(q))
					}
				}
			}
		}
		push(b.module(parentName(m.Name)))
	}
	return live
}

// pluginModules returns the modules that register handlers at their top
// level on a server imported from another module and do not run as a
// script (see liveModules).
func (b *builder) pluginModules() map[*pyast.Module]bool {
	entryMods := map[*pyast.Module]bool{}
	for _, q := range b.cfg.EntryPoints {
		if sym := b.lookup(q); sym.fn != nil {
			entryMods[sym.module] = true
		}
	}
	out := map[*pyast.Module]bool{}
	script := map[*pyast.Module]bool{} // modules found to run as a script (checked once: runsAtTop reads every call)
	for _, h := range b.out.Handlers {
		m := h.SiteModule
		if m == nil || h.Site == nil || out[m] || script[m] || entryMods[m] || m.Name == "" || h.Server == "" ||
			strings.HasPrefix(h.Server, m.Name+".") || m.FuncAt(h.Site) != nil {
			continue
		}
		if path.Base(strings.ReplaceAll(m.Path, "\\", "/")) == "__main__.py" || bytes.Contains(m.Src, []byte("__main__")) || runsAtTop(m) {
			script[m] = true
			continue
		}
		out[m] = true
	}
	return out
}

// runsAtTop reports whether a module calls a run method at its top level
// (mcp.run(), asyncio.run(main())).
func runsAtTop(m *pyast.Module) bool {
	for call := range m.Nodes("call") {
		// Most calls are in functions: that is the cheaper test (lastAttr
		// copies the attribute's name).
		if m.FuncAt(call) != nil {
			continue
		}
		if _, attr := lastAttr(m, pyast.Callee(call)); strings.HasPrefix(attr, "run") {
			return true
		}
	}
	return false
}

func parentName(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[:i]
	}
	return ""
}

// dynamicImports load modules by name at run time.
var dynamicImports = map[string]bool{
	"importlib.import_module": true, "__import__": true, "pkgutil.iter_modules": true,
	"pkgutil.walk_packages": true, "runpy.run_module": true, "runpy.run_path": true,
	"importlib.util.spec_from_file_location": true, "importlib.util.module_from_spec": true,
	"importlib.machinery.SourceFileLoader": true,
}

// dynamicHeads are the first names of dynamicImports. What a name resolves
// to is made of the module's name and words of its source, so a module that
// holds none of them in either cannot call one of dynamicImports, and its
// calls need not be resolved.
var dynamicHeads = []string{"importlib", "__import__", "pkgutil", "runpy"}

func importsDynamically(m *pyast.Module) bool {
	mentions := false
	for _, h := range dynamicHeads {
		if bytes.Contains(m.Src, []byte(h)) || strings.Contains(m.Name, h) {
			mentions = true
			break
		}
	}
	if !mentions {
		return false
	}
	for call := range m.Nodes("call") {
		for _, q := range m.Resolve(pyast.Callee(call)) {
			if dynamicImports[q] {
				return true
			}
		}
	}
	return false
}

// Something outside the project's own code can run f when f is a
// plainRoot or a resolvedRoot.

// plainRoot reports whether f is an entry point, a decorated function, a
// dunder method or main.
func (b *builder) plainRoot(m *pyast.Module, f *pyast.Function, entry map[*pyast.Function]bool) bool {
	if entry[f] {
		return true
	}
	for _, d := range f.Decorators {
		if !builtinDecorator(m, d) {
			return true
		}
	}
	if pytestCollects(m, f) {
		return true
	}
	if f.Class != nil {
		return strings.HasPrefix(f.Name, "__") && strings.HasSuffix(f.Name, "__") && f.Name != "__init__" && f.Name != "__new__"
	}
	return f.Parent == nil && f.Name == "main"
}

// pytestCollects reports whether pytest runs f as a test by its default
// collection rules: a module-level function named test* or a method named
// test* of a module-level class named Test*, in a module named test_*.py or
// *_test.py. (A decorated test is a root already; a unittest.TestCase's
// methods are, through its base outside the project.)
func pytestCollects(m *pyast.Module, f *pyast.Function) bool {
	if f.Parent != nil || !strings.HasPrefix(f.Name, "test") {
		return false
	}
	base := path.Base(m.Path)
	if !strings.HasSuffix(base, ".py") || !strings.HasPrefix(base, "test_") && !strings.HasSuffix(base, "_test.py") {
		return false
	}
	if f.Class == nil {
		return true
	}
	return strings.HasPrefix(f.Class.Name, "Test") && f.Class.Scope != nil && f.Class.Scope.Parent == m.Scope
}

// resolvedRoot reports whether f is a method of a class with a base outside
// the project or a server factory.
func (b *builder) resolvedRoot(m *pyast.Module, f *pyast.Function) bool {
	if f.Class != nil {
		return b.externalBase(f.Class, 0)
	}
	return f.Parent == nil && b.serverValues(b.engine.Returns(m, f)) != FrameworkUnknown
}

// builtinDecorator: decorators that only change how Python binds the
// function, so no framework calls it because of them.
func builtinDecorator(m *pyast.Module, d *pyast.Node) bool {
	for _, q := range m.Resolve(decoratorFunc(d)) {
		switch q {
		case "staticmethod", "classmethod", "property", "functools.wraps", "functools.cache", "functools.lru_cache",
			"functools.cached_property", "abc.abstractmethod", "typing.overload", "typing.override",
			"typing_extensions.override", "typing_extensions.overload":
			return true
		}
		if strings.HasSuffix(q, ".setter") || strings.HasSuffix(q, ".getter") || strings.HasSuffix(q, ".deleter") {
			return true
		}
	}
	return false
}

// externalBase reports whether a class has a base class outside the project
// (object aside), directly or through its project bases.
func (b *builder) externalBase(c *pyast.Class, depth int) bool {
	if depth > 6 {
		return false
	}
	m := b.classMod[c]
	for _, base := range c.Bases {
		if base.Kind() == "keyword_argument" {
			continue
		}
		qs := m.Resolve(base)
		if len(qs) == 0 {
			return true
		}
		for _, q := range qs {
			if q == "object" || q == "builtins.object" {
				continue
			}
			sym := b.lookup(q)
			if sym.class == nil || b.externalBase(sym.class, depth+1) {
				return true
			}
		}
	}
	return false
}

// constructsOwnServer reports whether code outside the project's test
// modules constructs a server: an application, whose exported functions
// run only where its own code calls them. A library (no server of its own)
// exports registration functions for its users' servers: the names its
// modules list in __all__ are roots.
func (b *builder) constructsOwnServer() bool {
	for _, s := range b.out.servers {
		if !isTestModule(s.Module) {
			return true
		}
	}
	return false
}

// dunderAll returns the names a module lists in __all__.
func dunderAll(m *pyast.Module) map[string]bool {
	out := map[string]bool{}
	for _, bd := range m.Scope.Local("__all__") {
		v := bd.Value()
		if v == nil {
			continue
		}
		pyast.Walk(v, func(n *pyast.Node) bool {
			if n.Kind() == "string" {
				out[strings.Trim(m.Text(n), "\"'")] = true
				return false
			}
			return true
		})
	}
	return out
}

// isTestModule reports whether a module is test code: under a tests/ or
// test/ folder, named test_*.py or *_test.py, or a conftest.py.
// The module's dotted name is used when it has one (the folders above the
// project do not count), else the file name.
func isTestModule(m *pyast.Module) bool {
	rest := m.Name
	if rest == "" {
		rest = strings.TrimSuffix(path.Base(strings.ReplaceAll(m.Path, "\\", "/")), ".py")
	}
	// The segments are walked in place: the engine asks this of every call
	// site's module it follows, and splitting the name each time was a
	// tenth of a pre-commit run.
	for {
		seg, tail, more := strings.Cut(rest, ".")
		last := !more
		if seg == "tests" || seg == "test" || seg == "conftest" && last ||
			last && (strings.HasPrefix(seg, "test_") || strings.HasSuffix(seg, "_test")) {
			return true
		}
		if last {
			return false
		}
		rest = tail
	}
}
