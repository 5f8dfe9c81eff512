package handlers

import (
	"bytes"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// Config for Build.
type Config struct {
	// ExtraDecorators are qualified names of in-house registration decorators.
	ExtraDecorators []string
	// ModuleFiles maps a dotted module name to the paths of the project's
	// files it can name (namespace packages and src/ layouts give several
	// names per file). Nil: modules are found by their Name only.
	ModuleFiles func(name string) []string
	// ModuleNames are the names ModuleFiles answers (every name it returns
	// a file for, and maybe more). Nil with ModuleFiles set: Build does
	// not answer the names of function locals without looking them up
	// (locals.go), as it cannot tell which names a module has.
	ModuleNames []string
	// EntryPoints are qualified names of functions a launcher runs
	// ([project.scripts] pkg.mod:main gives pkg.mod.main).
	EntryPoints []string
	// AllFunctions makes every function count as reachable (for reporting
	// unreachable code as notes); Unreached then tells them apart.
	AllFunctions bool
	// Jobs is the number of goroutines the per-module parts of Build run on
	// (<= 1: one); the Index does not depend on it.
	Jobs int
}

// symbol is what a qualified name refers to in the project.
type symbol struct {
	module   *pyast.Module
	fn       *pyast.Function
	class    *pyast.Class
	bindings []*pyast.Binding // a module-level variable
}

// isZero reports whether the name resolves to nothing in the project.
func (s symbol) isZero() bool {
	return s.module == nil && s.fn == nil && s.class == nil && len(s.bindings) == 0
}

type site struct {
	module *pyast.Module
	call   *pyast.Node
	caller *pyast.Function // nil at module level
	callee FuncRef
}

type builder struct {
	cfg      Config
	mods     []*pyast.Module
	byPath   map[string]*pyast.Module
	byName   map[string]*pyast.Module
	funcs    map[string]FuncRef
	classes  map[string]*pyast.Class
	classMod map[*pyast.Class]*pyast.Module
	moduleOf map[*pyast.Function]*pyast.Module
	sites    []site
	siteOf   map[*pyast.Function][]int32           // call sites by callee: indexes into sites
	succ     map[*pyast.Function][]*pyast.Function // see successors
	out      *Index
	seenReg  map[string]*Handler
	// makers are, by call, the names its callee resolves to that make a
	// handler from a function (fromFunction) or a server (serverClasses):
	// indexCalls resolves every callee, registrationCall reads these.
	makers map[*pyast.Node][]string
	// pending are the handlers findRegistrations found, before record
	// keeps each once.
	pending []*Handler
	// unfound are the registration calls whose handler the analysis
	// cannot tell (unfoundHandler), found with pending.
	unfound []unfoundSite
	// added is what the project adds to collection variables (additions):
	// lazy.added once built, or the part built so far while this builder
	// builds it.
	added map[string][]valueAt
	lazy  *lazyTables // tables built on first use, shared with forks
	// looked memoizes lookup: the modules, their bindings and the
	// definitions do not change once Build has indexed them, and the same
	// names (builtins, imported library calls) are looked up at every call.
	looked *lookupMemo
	// locals are the functions whose local values name nothing, skipLocal
	// is localRoot made once (locals.go).
	locals    localFuncs
	skipLocal func(*pyast.Scope, string, []*pyast.Binding) bool
	// starSeen are the star imports memberOf has followed during the
	// current lookup, by module and dotted name, with the least depth each
	// was followed at: star imports may form cycles (every submodule does
	// "from . import *" of a package that star-imports them all), and
	// following each again would take time exponential in lookupDepth's
	// bound.
	starSeen map[starKey]int
	// exported are the names each module the project star-imports exports
	// (exportsOf), read once before the workers start.
	exported map[*pyast.Module]exports
	// engineOf are the project functions the value-flow engine finds each
	// call can run (enginecallees.go), found before the workers start.
	engineOf map[*pyast.Node][]FuncRef
	// engine is the value-flow engine of the project (engineCallees and
	// unresolvedCalls ask it); serverAt holds its
	// answer to "is this object a server" for the objects of registration
	// and run methods (engineservers.go), found before the workers start.
	engine   *values.Engine
	serverAt map[*pyast.Node]Framework
}

// starKey is a name looked up in a module's star imports.
type starKey struct {
	mod  *pyast.Module
	name string
}

// countStarFollow, when set (by tests), is called for every star import
// memberOf follows.
var countStarFollow func()

// Build finds the servers, handlers and reachable code of one project.
func Build(mods []*pyast.Module, cfg Config) *Index {
	b := &builder{
		cfg: cfg, mods: mods,
		byPath: map[string]*pyast.Module{}, byName: map[string]*pyast.Module{},
		funcs: map[string]FuncRef{}, classes: map[string]*pyast.Class{},
		classMod: map[*pyast.Class]*pyast.Module{}, moduleOf: map[*pyast.Function]*pyast.Module{},
		siteOf: map[*pyast.Function][]int32{}, makers: map[*pyast.Node][]string{}, seenReg: map[string]*Handler{},
		succ: map[*pyast.Function][]*pyast.Function{}, lazy: &lazyTables{}, looked: newLookupMemo(),
		out: &Index{reached: map[*pyast.Function][]*Handler{}, callers: map[*pyast.Function][]CallSite{},
			funcs: map[string]FuncRef{}, moduleOf: map[*pyast.Function]*pyast.Module{}},
	}
	for _, m := range mods {
		b.byPath[m.Path] = m
		if m.Name != "" {
			b.byName[m.Name] = m
		}
		for _, f := range m.Funcs {
			b.funcs[f.Qual] = FuncRef{m, f}
			b.moduleOf[f] = m
		}
		for _, c := range m.Classes {
			b.classes[c.Qual] = c
			b.classMod[c] = m
		}
	}
	b.exported = map[*pyast.Module]exports{}
	for _, m := range mods {
		for _, name := range m.Stars {
			if src := b.module(name); src != nil {
				if _, ok := b.exported[src]; !ok {
					b.exported[src] = exportsOf(src)
				}
			}
		}
	}
	b.out.funcs, b.out.moduleOf = b.funcs, b.moduleOf
	b.out.builder = b
	b.findLocalFuncs()
	b.engineCallees()
	b.engineServers()
	b.indexCalls()
	found := make([][]*Handler, len(mods))
	unfound := make([][]unfoundSite, len(mods))
	b.forEachModule(func(w *builder, i int) {
		w.pending, w.unfound = nil, nil
		w.findRegistrations(mods[i])
		found[i], unfound[i] = w.pending, w.unfound
	})
	b.pending, b.unfound = nil, nil
	// Registrations that never run (a test's server that is only looked
	// at, a function nothing live calls) go before duplicates are merged:
	// a test that registers a served tool again on a server of its own
	// sorts first (tests/ before weather/), and keeping its registration
	// would drop the production one.
	for i, hs := range found { // in module order, as one pass would find them
		b.out.Handlers = append(b.out.Handlers, hs...)
		b.unfound = append(b.unfound, unfound[i]...)
	}
	b.dropUnreachedRegistrations()
	all := b.out.Handlers
	b.out.Handlers = nil
	for _, h := range all {
		b.record(h)
	}
	sortHandlers(b.out.Handlers) // once: sorting after each module was quadratic
	b.dropDisabled()
	b.reach()
	b.findGuards()
	b.unresolvedCalls()
	return b.out
}

// module finds a project module by dotted name.
func (b *builder) module(name string) *pyast.Module {
	if m := b.byName[name]; m != nil {
		return m
	}
	if b.cfg.ModuleFiles != nil {
		for _, p := range b.cfg.ModuleFiles(name) {
			if m := b.byPath[p]; m != nil {
				return m
			}
		}
	}
	return nil
}

// lookup resolves a qualified name to a project definition, following
// re-exports (from .server import mcp in __init__.py) and class bases.
func (b *builder) lookup(q string) symbol {
	// A project definition is one map lookup away: memoizing it would
	// double what the project's definitions cost.
	if r, ok := b.funcs[q]; ok {
		return symbol{module: r.Module, fn: r.Func}
	}
	if c, ok := b.classes[q]; ok {
		return symbol{module: b.classMod[c], class: c}
	}
	if sym, ok := b.looked.get(q); ok {
		return sym
	}
	// A lookup within this one (a class base's, from method) has its own
	// star imports to follow.
	seen := b.starSeen
	b.starSeen = nil
	sym := b.lookupDepth(q, 0)
	b.starSeen = seen
	b.looked.put(q, sym)
	return sym
}

func (b *builder) lookupDepth(q string, depth int) symbol {
	if depth > 8 || q == "" {
		return symbol{}
	}
	if r, ok := b.funcs[q]; ok {
		return symbol{module: r.Module, fn: r.Func}
	}
	if c, ok := b.classes[q]; ok {
		return symbol{module: b.classMod[c], class: c}
	}
	parts := strings.Split(q, ".")
	for i := len(parts); i >= 1; i-- {
		m := b.module(strings.Join(parts[:i], "."))
		if m == nil {
			continue
		}
		rest := parts[i:]
		if len(rest) == 0 {
			return symbol{module: m}
		}
		return b.memberOf(m, m.Scope, rest, depth)
	}
	return symbol{}
}

// memberOf resolves rest (a dotted path) inside a module scope.
func (b *builder) memberOf(m *pyast.Module, s *pyast.Scope, rest []string, depth int) symbol {
	bs := s.Local(rest[0])
	// What another module imports is the last value bound at module level,
	// so later bindings come first.
	for i := len(bs) - 1; i >= 0; i-- {
		bd := bs[i]
		switch bd.Kind {
		case pyast.BindDef:
			q := bd.Targets()[0]
			if r, ok := b.funcs[q]; ok && len(rest) == 1 {
				return symbol{module: r.Module, fn: r.Func}
			}
			if c, ok := b.classes[q]; ok {
				if len(rest) == 1 {
					return symbol{module: m, class: c}
				}
				if f := b.method(c, rest[1], 0); f != nil && len(rest) == 2 {
					return symbol{module: b.moduleOf[f], fn: f}
				}
			}
		case pyast.BindImport, pyast.BindAlias:
			for _, t := range bd.Targets() {
				if sym := b.lookupDepth(strings.Join(append([]string{t}, rest[1:]...), "."), depth+1); sym.module != nil {
					return sym
				}
			}
		case pyast.BindValue:
			if len(rest) == 1 {
				return symbol{module: m, bindings: bs}
			}
		}
	}
	// A submodule not bound in the package's scope.
	if sub := b.module(m.Name + "." + rest[0]); sub != nil && m.IsPackage() {
		if len(rest) == 1 {
			return symbol{module: sub}
		}
		return b.memberOf(sub, sub.Scope, rest[1:], depth+1)
	}
	// A name the module's star imports bring in (from .runtime import *):
	// the later import's, as Python rebinds it.
	// Followed already during this lookup, with as much depth left, it
	// found nothing or is being followed further up.
	if len(bs) == 0 && s == m.Scope && len(m.Stars) > 0 {
		key := starKey{m, strings.Join(rest, ".")}
		if d, ok := b.starSeen[key]; ok && d <= depth {
			return symbol{}
		}
		if b.starSeen == nil {
			b.starSeen = map[starKey]int{}
		}
		b.starSeen[key] = depth
		for i := len(m.Stars) - 1; i >= 0; i-- {
			if src := b.module(m.Stars[i]); src != nil && !b.starExports(src, rest[0]) {
				continue
			}
			if countStarFollow != nil {
				countStarFollow()
			}
			// starSeen ends cycles of star imports: following one uses up
			// none of the depth, so that a long chain of them is not cut
			// short by its first, deepest visit.
			if sym := b.lookupDepth(m.Stars[i]+"."+key.name, depth); !sym.isZero() {
				return sym
			}
		}
	}
	return symbol{}
}

// starExports reports whether "from m import *" binds name (see exportsOf).
func (b *builder) starExports(m *pyast.Module, name string) bool {
	e, ok := b.exported[m]
	if !ok { // not a module the project star-imports (Build found them all)
		e = exportsOf(m)
	}
	switch {
	case e.every:
		return true
	case e.listed == nil:
		return !strings.HasPrefix(name, "_")
	}
	return e.listed[name]
}

// exports are the names "from m import *" binds.
type exports struct {
	listed map[string]bool // the strings __all__ is made of; nil without __all__: the names with no leading underscore
	every  bool            // __all__ is computed: any name
}

// exportsOf reads a module's __all__: the string literals it is assigned
// (__all__ = [...] or (...)), added (__all__ += [...]), extended with
// (__all__.extend([...])) or appended (__all__.append("x")), anywhere in
// the module. Any other use (__all__ = [n for n in globals() ...], a name
// that is not a literal, __all__.insert(...), a read) leaves what it holds
// unknown: then it is every name.
func exportsOf(m *pyast.Module) exports {
	if !bytes.Contains(m.Src, []byte("__all__")) {
		return exports{}
	}
	e := exports{listed: map[string]bool{}}
	isAll := func(n *pyast.Node) bool {
		return n != nil && n.Kind() == "identifier" && m.TextView(n) == "__all__"
	}
	same := func(a, b *pyast.Node) bool { return a != nil && b != nil && a.Id() == b.Id() }
	// add adds the strings of a list or tuple display (one string when
	// single), false when it holds anything else.
	add := func(v *pyast.Node, single bool) bool {
		v = pyast.Unparen(v)
		if single {
			s, ok := stringValue(m, v)
			if ok {
				e.listed[s] = true
			}
			return ok
		}
		if v == nil || v.Kind() != "list" && v.Kind() != "tuple" {
			return false
		}
		for _, el := range pyast.NamedChildren(v) {
			if el.Kind() == "comment" {
				continue
			}
			s, ok := stringValue(m, el)
			if !ok {
				return false
			}
			e.listed[s] = true
		}
		return true
	}
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if e.every || !isAll(n) {
			return !e.every
		}
		p := n.Parent()
		if p == nil {
			e.every = true
			return false
		}
		switch p.Kind() {
		case "assignment":
			if same(p.ChildByFieldName("left"), n) && add(pyast.AssignedValue(p), false) {
				return false
			}
		case "augmented_assignment":
			if op := p.ChildByFieldName("operator"); same(p.ChildByFieldName("left"), n) &&
				op != nil && m.TextView(op) == "+=" && add(p.ChildByFieldName("right"), false) {
				return false
			}
		case "attribute":
			if same(p.ChildByFieldName("attribute"), n) {
				return false // other.__all__: another module's
			}
			call, method := p.Parent(), m.TextView(p.ChildByFieldName("attribute"))
			if call != nil && call.Kind() == "call" && same(call.ChildByFieldName("function"), p) &&
				(method == "extend" || method == "append") {
				args := pyast.NamedChildren(call.ChildByFieldName("arguments"))
				if len(args) == 1 && add(args[0], method == "append") {
					return false
				}
			}
		}
		e.every = true
		return false
	})
	return e
}

// method finds a method on a project class or its project bases.
func (b *builder) method(c *pyast.Class, name string, depth int) *pyast.Function {
	if f := c.Methods[name]; f != nil {
		return f
	}
	if depth > 6 {
		return nil
	}
	m := b.classMod[c]
	for _, base := range c.Bases {
		for _, q := range m.Resolve(base) {
			if sym := b.lookup(q); sym.class != nil {
				if f := b.method(sym.class, name, depth+1); f != nil {
					return f
				}
			}
		}
	}
	return nil
}

// funcOf resolves an expression that names a function (a call's callee, a
// decorator, a callback argument) to a project function.
func (b *builder) funcOf(m *pyast.Module, expr *pyast.Node) (FuncRef, bool) {
	expr = pyast.Unparen(expr)
	if expr == nil {
		return FuncRef{}, false
	}
	for _, sym := range b.resolveNames(m, expr).syms {
		if sym.fn != nil {
			return FuncRef{sym.module, sym.fn}, true
		}
		if sym.class != nil { // constructing a project class runs __init__
			if f := b.method(sym.class, "__init__", 0); f != nil {
				return FuncRef{b.moduleOf[f], f}, true
			}
		}
	}
	// obj.method() where obj was built from a project class, directly or by
	// a factory, here or in the module obj is imported from.
	if obj, attr := lastAttr(m, expr); obj != nil {
		for _, c := range b.objClasses(m, obj, 0) {
			if f := b.method(c, attr, 0); f != nil {
				return FuncRef{b.moduleOf[f], f}, true
			}
		}
	}
	return FuncRef{}, false
}

// names are the qualified names an expression resolves to (Module.Resolve)
// and what each names in the project (lookup), found once for the several
// questions moduleCalls asks of a call's callee.
type names struct {
	quals []string
	syms  []symbol
}

// resolveNames resolves expr in m and looks each of its names up.
func (b *builder) resolveNames(m *pyast.Module, expr *pyast.Node) names {
	qs := b.quals(m, expr)
	if len(qs) == 0 {
		return names{}
	}
	syms := make([]symbol, len(qs))
	for i, q := range qs {
		syms[i] = b.lookup(q)
	}
	return names{qs, syms}
}

// quals is m.Resolve(expr), except that it returns none for the local
// values that name nothing in the project (locals.go).
func (b *builder) quals(m *pyast.Module, expr *pyast.Node) []string {
	if e := pyast.Unparen(expr); e == nil || e.Kind() != "identifier" && e.Kind() != "attribute" {
		return nil // Resolve resolves names only
	}
	return m.ResolveUnless(m.ScopeAt(expr), expr, b.skipLocal) // skipLocal is nil without locals
}

// objClasses returns the project classes whose instance obj can be: a name
// bound to a constructor or factory call (here or in the module it is
// imported from), such a call itself (Tool().execute()), self.x, and,
// through an instance of a project class, an attribute its methods assign
// (session.account_manager, set by self.account_manager = AccountManager())
// or what one of its methods returns (registry.get_session(), annotated or
// returning a constructor call).
func (b *builder) objClasses(m *pyast.Module, obj *pyast.Node, depth int) []*pyast.Class {
	obj = pyast.Unparen(obj)
	if obj == nil || depth > 4 {
		return nil
	}
	types := m.TypesOf(obj)
	if obj.Kind() == "call" { // Tool().execute(), get_service().run()
		types = m.Resolve(pyast.Callee(obj))
	}
	if len(types) == 0 {
		for _, sym := range b.resolveNames(m, obj).syms {
			for _, bd := range sym.bindings {
				types = append(types, bd.Types()...)
			}
		}
	}
	var out []*pyast.Class
	for _, t := range qualifyTypes(m, types) {
		if c := b.classOf(t, 0); c != nil {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out
	}
	switch obj.Kind() {
	case "call": // x.method(...): what the method of x's class returns
		if inner, attr := lastAttr(m, pyast.Callee(obj)); inner != nil {
			for _, c := range b.objClasses(m, inner, depth+1) {
				if f := b.method(c, attr, 0); f != nil {
					if c := b.returnedClass(b.moduleOf[f], f, depth+1); c != nil {
						out = append(out, c)
					}
				}
			}
		}
	case "attribute": // x.attr: what the methods of x's class assign to self.attr
		inner, attr := lastAttr(m, obj)
		for _, c := range b.objClasses(m, inner, depth+1) {
			cm := b.classMod[c]
			for _, bd := range c.Attrs[attr] {
				for _, t := range qualifyTypes(cm, bd.Types()) {
					if k := b.classOf(t, 0); k != nil {
						out = append(out, k)
					}
				}
				if v := pyast.Unparen(bd.Value()); v != nil && v.Kind() == "call" {
					out = append(out, b.objClasses(cm, v, depth+1)...)
				}
			}
		}
	case "identifier": // s = registry.get_session(): a call the types do not name
		for _, bd := range m.ScopeAt(obj).Lookup(m.Text(obj)) {
			if v := pyast.Unparen(bd.Value()); v != nil && v.Kind() == "call" {
				out = append(out, b.objClasses(m, v, depth+1)...)
			}
		}
	}
	return out
}

// qualifyTypes resolves bare type names in m's module scope: a function
// body indexed before a later module-level def (p = make() above def
// make()) records the name as written.
func qualifyTypes(m *pyast.Module, types []string) []string {
	var out []string
	for _, t := range types {
		if strings.Contains(t, ".") {
			out = append(out, t)
			continue
		}
		bs := m.Scope.Local(t)
		if len(bs) == 0 {
			out = append(out, t)
		}
		for _, bd := range bs {
			out = append(out, bd.Targets()...)
		}
	}
	return out
}

// classOf returns the project class a constructor or factory name produces:
// the class itself, or what a factory function returns (its return
// annotation, else the class in its return statements).
func (b *builder) classOf(q string, depth int) *pyast.Class {
	if depth > 4 {
		return nil
	}
	sym := b.lookup(q)
	if sym.class != nil {
		return sym.class
	}
	if sym.fn == nil {
		return nil
	}
	return b.returnedClass(sym.module, sym.fn, depth)
}

// returnedClass returns the project class whose instance function fn of
// module m returns: its return annotation, else the class in its return
// statements.
func (b *builder) returnedClass(m *pyast.Module, fn *pyast.Function, depth int) *pyast.Class {
	if m == nil || depth > 4 {
		return nil
	}
	for _, rq := range m.Resolve(pyast.ReturnAnnotation(fn)) {
		if c := b.classOf(rq, depth+1); c != nil {
			return c
		}
	}
	for _, v := range pyast.Returns(fn) {
		if v.Kind() == "call" {
			for _, rq := range m.Resolve(pyast.Callee(v)) {
				if c := b.classOf(rq, depth+1); c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// indexCalls records every call from project code to project functions, in
// module and document order, and the successors of every function. The
// modules are indexed on the builder's workers.
func (b *builder) indexCalls() {
	per := make([]moduleCalls, len(b.mods))
	b.forEachModule(func(w *builder, i int) { per[i] = w.moduleCalls(b.mods[i]) })
	n := 0
	for _, mc := range per {
		n += len(mc.sites)
	}
	b.sites = make([]site, 0, n)
	for i, m := range b.mods {
		for _, s := range per[i].sites {
			b.siteOf[s.callee.Func] = append(b.siteOf[s.callee.Func], int32(len(b.sites)))
			b.sites = append(b.sites, s)
		}
		for j, f := range m.Funcs {
			b.succ[f] = per[i].succ[j]
		}
		b.out.servers = append(b.out.servers, per[i].servers...)
		for _, mk := range per[i].makers {
			b.makers[mk.call] = mk.quals
		}
	}
	// A decorator's wrapper runs the def it wraps, but the engine's value
	// of its parameter is every def the decorator is applied to: an edge to
	// each would make every decorated def reach all the others (@traced on
	// a hundred functions). Where a def's callers run it directly (the
	// engine resolved their calls to the def), they reach it without the
	// wrapper; a def whose callers only reach the wrapper keeps the edge.
	ran := map[*pyast.Function]bool{}
	for _, ss := range b.succ {
		for _, g := range ss {
			ran[g] = true
		}
	}
	for i, m := range b.mods {
		for j, f := range m.Funcs {
			for _, g := range per[i].wrapped[j] {
				if !ran[g] {
					b.succ[f] = append(b.succ[f], g)
				}
			}
		}
	}
}

// maker is a call whose callee can make a handler or a server (makers).
type maker struct {
	call  *pyast.Node
	quals []string
}

// moduleCalls is what indexCalls finds in one module.
type moduleCalls struct {
	sites []site
	succ  [][]*pyast.Function // the successors of m.Funcs[j]
	// wrapped are the defs a decorator's wrapper m.Funcs[j] runs through
	// the decorator's parameter (decoratorParamCall): successors only of a
	// def nothing else runs (indexCalls).
	wrapped [][]*pyast.Function
	servers []ServerSite // the calls that construct a server (see findGuards)
	makers  []maker
}

// decoratorParamCall returns, for a call in w of a parameter of a function
// enclosing w (a decorator's wrapper calling func: def traced(func): async
// def wrapper(*a): return await func(*a)), that function and those
// enclosing it; nil for other calls.
func (b *builder) decoratorParamCall(m *pyast.Module, w *pyast.Function, call *pyast.Node) []*pyast.Function {
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil || callee.Kind() != "identifier" {
		return nil
	}
	name := m.TextView(callee)
	for d := w.Parent; d != nil; d = d.Parent {
		if isParamOf(m, d, w, name, callee, 0) {
			var out []*pyast.Function
			for e := d; e != nil; e = e.Parent {
				out = append(out, e)
			}
			return out
		}
	}
	return nil
}

// decoratedBy reports whether r is a def that one of fs decorates (a
// decorator of r runs one of them, @traced or @traced(...)). Such a def is
// what the wrapper of a decorator call runs for that def only, and the
// def's callers reach it directly (the engine resolves a call of it to the
// def): an edge from the wrapper to every def the decorator is applied to
// would make each reach all the others.
func (b *builder) decoratedBy(r FuncRef, fs []*pyast.Function) bool {
	for _, d := range r.Func.Decorators {
		for _, g := range b.decoratorRuns(r.Module, d) {
			if slices.Contains(fs, g.Func) {
				return true
			}
		}
	}
	return false
}

// moduleCalls resolves the calls of module m, and the successors of its
// functions: the functions nested in each (closures it returns or
// schedules), the project decorators applied to it, then for each call it
// makes (in document order) what the call runs and the project functions
// passed to it (callbacks such as to_thread.run_sync(helper)); and the calls
// that construct a server.
func (b *builder) moduleCalls(m *pyast.Module) moduleCalls {
	funcAt := make(map[*pyast.Function]int, len(m.Funcs))
	for j, f := range m.Funcs {
		funcAt[f] = j
	}
	succ := make([][]*pyast.Function, len(m.Funcs))
	wrapped := make([][]*pyast.Function, len(m.Funcs))
	for _, g := range m.Funcs {
		if g.Parent != nil {
			j := funcAt[g.Parent]
			succ[j] = append(succ[j], g)
		}
	}
	for j, f := range m.Funcs {
		for _, d := range f.Decorators {
			for _, r := range b.decoratorRuns(m, d) {
				succ[j] = append(succ[j], r.Func)
			}
		}
	}
	var sites []site
	var servers []ServerSite
	var makers []maker
	var kws []*pyast.Node
	for n := range m.Nodes("call") {
		// The callee is resolved once for every question (registrationCall
		// asks later).
		callee := pyast.Callee(n)
		ns := b.resolveNames(m, callee)
		if b.constructsServer(ns) {
			servers = append(servers, ServerSite{m, n})
		} else if c := pyast.Constructor(n); c != pyast.Unparen(callee) && b.constructsServer(b.resolveNames(m, c)) {
			servers = append(servers, ServerSite{m, n}) // FastMCP[None](...)
		}
		var qs []string
		for _, q := range ns.quals {
			if _, ok := fromFunction(q); ok {
				qs = append(qs, q)
			} else if _, ok := serverClasses[q]; ok {
				qs = append(qs, q)
			}
		}
		if qs != nil {
			makers = append(makers, maker{n, qs})
		}
		caller := m.FuncAt(n)
		callees := b.engineOf[n]
		for _, callee := range callees {
			sites = append(sites, site{module: m, call: n, caller: caller, callee: callee})
		}
		if caller == nil {
			continue
		}
		j := funcAt[caller]
		through := b.decoratorParamCall(m, caller, n)
		for _, r := range callees {
			if through != nil && b.decoratedBy(r, through) {
				wrapped[j] = append(wrapped[j], r.Func) // indexCalls decides
				continue
			}
			succ[j] = append(succ[j], r.Func)
		}
		// A call of a decorated def runs the def through its wrapper: the
		// def is a successor of the caller (the engine's callee is the
		// wrapper), so the wrapper need not fan out to it (indexCalls).
		if r, ok := b.funcOf(m, callee); ok && len(r.Func.Decorators) > 0 && !slices.Contains(succ[j], r.Func) {
			succ[j] = append(succ[j], r.Func)
		}
		pos, kw := m.Args(n)
		for _, a := range pos {
			if r, ok := b.funcOf(m, a); ok {
				succ[j] = append(succ[j], r.Func)
			}
		}
		kws = kws[:0]
		for _, a := range kw {
			kws = append(kws, a)
		}
		sort.Slice(kws, func(x, y int) bool { return kws[x].StartByte() < kws[y].StartByte() })
		for _, a := range kws {
			if r, ok := b.funcOf(m, a); ok {
				succ[j] = append(succ[j], r.Func)
			}
		}
	}
	// A with item or a for statement's iterable that is no call runs its
	// context manager's or iterator's methods (engineCallees): a site of
	// its own, after the calls.
	var runs []*pyast.Node
	for s := range m.Nodes("with_statement") {
		runs = append(runs, pyast.WithItems(s)...)
	}
	for s := range m.Nodes("for_statement") {
		if it := pyast.Unparen(s.ChildByFieldName("right")); it != nil {
			runs = append(runs, it)
		}
	}
	for _, n := range runs {
		if n.Kind() == "call" {
			continue
		}
		caller := m.FuncAt(n)
		for _, callee := range b.engineOf[n] {
			sites = append(sites, site{module: m, call: n, caller: caller, callee: callee})
			if caller != nil {
				succ[funcAt[caller]] = append(succ[funcAt[caller]], callee.Func)
			}
		}
	}
	return moduleCalls{sites: sites, succ: succ, wrapped: wrapped, servers: servers, makers: makers}
}

// callSitesOf yields the call sites of f, in the order indexCalls found
// them.
func (b *builder) callSitesOf(f *pyast.Function) iter.Seq[site] {
	return func(yield func(site) bool) {
		for _, j := range b.siteOf[f] {
			if !yield(b.sites[j]) {
				return
			}
		}
	}
}

// reach computes which functions the handlers can run and condenses the
// graph they form for ReachedFrom (reachSets), then lists the reached call
// sites and functions.
func (b *builder) reach() {
	b.reachInto(b.out, b.sites, b.successors)
}

// reachInto is reach for index ix over the call sites sites and the
// successors succ (the resolved graph, or that graph with the fallback
// edges of unresolved.go).
func (b *builder) reachInto(ix *Index, sites []site, succ func(*pyast.Function) []*pyast.Function) {
	node := b.reachSets(ix, succ)
	for _, s := range sites {
		if _, ok := node[s.caller]; ok {
			ix.callers[s.callee.Func] = append(ix.callers[s.callee.Func], CallSite{Caller: FuncRef{s.module, s.caller}, Call: s.call, Callee: s.callee})
		}
	}
	ix.unreached = map[string]bool{}
	for _, m := range b.mods {
		for _, f := range m.Funcs {
			if _, ok := node[f]; ok {
				ix.reachable = append(ix.reachable, FuncRef{m, f})
			} else if b.cfg.AllFunctions {
				ix.reachable = append(ix.reachable, FuncRef{m, f})
				ix.unreached[f.Qual] = true
			}
		}
	}
}

// reachSets finds the functions the handlers can run, in one traversal from
// every handler's entry points at once (linear in the call graph), numbers
// them, and condenses the graph they form (reachsets.go).
func (b *builder) reachSets(ix *Index, successors func(*pyast.Function) []*pyast.Function) (node map[*pyast.Function]int32) {
	node = map[*pyast.Function]int32{}
	var funcs []*pyast.Function // by node
	startsAt := map[*pyast.Function][]int32{}
	var queue []*pyast.Function
	for i, h := range ix.Handlers {
		for _, f := range append(append([]*pyast.Function{h.Func}, h.Wrappers...), h.AltWrappers...) {
			startsAt[f] = append(startsAt[f], int32(i))
			queue = append(queue, f)
		}
	}
	for len(queue) > 0 {
		f := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if _, ok := node[f]; ok {
			continue
		}
		node[f] = int32(len(funcs))
		funcs = append(funcs, f)
		queue = append(queue, successors(f)...)
	}
	succOff := make([]int32, len(funcs)+1)
	var succ []int32
	for v, f := range funcs {
		for _, g := range successors(f) {
			succ = append(succ, node[g])
		}
		succOff[v+1] = int32(len(succ))
	}
	ix.sets = newReachSets(succOff, succ, len(ix.Handlers), func(v int32) []int32 { return startsAt[funcs[v]] })
	ix.sets.node = node
	ix.reached = map[*pyast.Function][]*Handler{}
	ix.handlerFns = map[*pyast.Function]bool{}
	for _, h := range ix.Handlers {
		ix.handlerFns[h.Func] = true
	}
	return node
}

// reachedFrom returns the handlers from which f can run: the handlers with
// an entry point (the function or a wrapper) among f and the functions that
// reach it. f's own handlers come first (the last registered first), then the
// others in registration order. The list is the one of f's strongly
// connected component, shared by its functions, unless f is a handler's
// function (then it is made once for f).
func (ix *Index) reachedFrom(f *pyast.Function) []*Handler {
	if ix.sets == nil {
		return nil
	}
	v, ok := ix.sets.node[f]
	if !ok {
		return nil
	}
	s := ix.sets.setOf(ix.sets.comp[v])
	if !ix.handlerFns[f] {
		return ix.handlerList(s)
	}
	if out, ok := ix.reached[f]; ok {
		return out
	}
	out := make([]*Handler, 0, len(s.idx))
	for k := len(s.idx) - 1; k >= 0; k-- {
		if h := ix.Handlers[s.idx[k]]; h.Func == f {
			out = append(out, h)
		}
	}
	for _, i := range s.idx {
		if h := ix.Handlers[i]; h.Func != f {
			out = append(out, h)
		}
	}
	ix.reached[f] = out
	return out
}

// handlerList returns the handlers of a set, made once per set.
func (ix *Index) handlerList(s *reachSet) []*Handler {
	if s.list == nil && len(s.idx) > 0 {
		list := make([]*Handler, len(s.idx))
		for k, i := range s.idx {
			list[k] = ix.Handlers[i]
		}
		s.list = list
	}
	return s.list
}

// successors are the functions f can run: the project functions it calls or
// passes to a call, the functions nested in it and the project decorators
// applied to it (see moduleCalls, which computes them for every function).
func (b *builder) successors(f *pyast.Function) []*pyast.Function {
	return b.succ[f]
}

// decoratorFunc returns the function expression of a decorator: d itself, or
// the callee when the decorator is a call (@retry(3)).
func decoratorFunc(d *pyast.Node) *pyast.Node {
	if d.Kind() == "call" {
		return pyast.Callee(d)
	}
	return d
}

// Unreached reports whether the function with qualified name qual was made
// reachable only by Config.AllFunctions.
func (ix *Index) Unreached(qual string) bool { return ix != nil && ix.unreached[qual] }

// Callees resolves a call to the project functions it can run: those the
// value-flow engine says its callee can be, the answer the handler graph's
// edges hold (the checkpoint analysis asks it of awaited calls).
func (ix *Index) Callees(m *pyast.Module, call *pyast.Node) []checkpoint.Callee {
	if ix == nil || ix.builder == nil {
		return nil
	}
	rs := ix.builder.engineOf[call]
	out := make([]checkpoint.Callee, 0, len(rs))
	for _, r := range rs {
		out = append(out, checkpoint.Callee{Module: r.Module, Func: r.Func})
	}
	return out
}

// Externals returns the library values the value-flow engine says e can
// be, spelled as checkpoint.Resolver says: an External by its qualified
// name, what a call of one returns (ExtResult) followed by "()".
func (ix *Index) Externals(m *pyast.Module, e *pyast.Node) []string {
	if ix == nil || ix.builder == nil || ix.builder.engine == nil {
		return nil
	}
	var out []string
	for _, v := range ix.builder.engine.Eval(m, e) {
		switch v.Kind {
		case values.External:
			out = append(out, v.Name)
		case values.ExtResult:
			out = append(out, v.Name+"()")
		}
	}
	return out
}

// Resolve resolves a name expression to a project function, if any.
func (ix *Index) Resolve(m *pyast.Module, expr *pyast.Node) (FuncRef, bool) {
	if ix == nil || ix.builder == nil {
		return FuncRef{}, false
	}
	return ix.builder.funcOf(m, expr)
}

// Server returns the framework of the server object expr refers to.
func (ix *Index) Server(m *pyast.Module, expr *pyast.Node) (Framework, string) {
	if ix == nil || ix.builder == nil {
		return FrameworkUnknown, ""
	}
	return ix.builder.serverOf(m, expr)
}

func sortHandlers(hs []*Handler) {
	sort.SliceStable(hs, func(i, j int) bool {
		if hs[i].Module.Path != hs[j].Module.Path {
			return hs[i].Module.Path < hs[j].Module.Path
		}
		return hs[i].Func.Node.StartByte() < hs[j].Func.Node.StartByte()
	})
}
