package values

import (
	"strings"
	"sync"

	"github.com/mcplint/mcplint/pyast"
)

// Config for New.
type Config struct {
	// ModuleFiles maps a dotted module name to the paths of the project's
	// files it can name (as handlers.Config.ModuleFiles); nil: modules are
	// found by their Name only.
	ModuleFiles func(name string) []string
	// Budget bounds the evaluation steps of one top-level question (0: a
	// default of 20,000); past it the answer holds an unknown.
	Budget int
	// Aside reports the modules whose calls, container mutations and
	// attribute stores are not followed into the values of other code (a
	// project's tests: what a test passes to a function, adds to a registry
	// or assigns to an attribute is not what the server runs). Nil: none.
	Aside func(*pyast.Module) bool
}

// aside reports whether m's calls and writes are not followed (Config.Aside),
// asked of Config.Aside once per module: it is asked of every call site
// followed.
func (e *Engine) aside(m *pyast.Module) bool {
	if e.cfg.Aside == nil {
		return false
	}
	a, ok := e.asides[m]
	if !ok {
		a = e.cfg.Aside(m)
		e.asides[m] = a
	}
	return a
}

// Engine answers "what can this expression be" for one project. It is
// demand-driven: nothing is computed before a question asks for it, and
// every answer is memoised. An Engine is safe for concurrent use (its
// questions are serialised).
type Engine struct {
	cfg    Config
	mods   []*pyast.Module
	byName map[string]*pyast.Module
	byPath map[string]*pyast.Module
	modOf  map[*pyast.Function]*pyast.Module
	clsMod map[*pyast.Class]*pyast.Module

	mu     sync.Mutex
	asides map[*pyast.Module]bool // Config.Aside's answers (e.mu held)
	// memo holds the answers: by node (an expression's values), by
	// binding, by function (its return values), by class and name (an
	// attribute through the MRO).
	memo    map[memoKey]*entry
	stack   int // the depth of questions being answered
	depth   int // the depth of expressions being evaluated (maxDepth)
	low     int // the lowest stack depth of an unfinished answer read (cycle detection)
	steps   int // the steps of the current top-level question
	gen     int // the pass over a cycle's questions (memoised)
	changes int // answers that grew
	// truncated is set when the current question ran out of its budget:
	// its answers are not kept; truncations counts such questions.
	truncated   bool
	truncations int
	computed    int // answers computed, passes over cycles included (the engine's work)
	// partial is set when the answer being computed read an index that
	// was still being built (subclasses, mutationIndex), or an answer
	// that did: such an answer is kept only while the index is built
	// (its other questions read it as it is) and forgotten after
	// (forgetPartial). Unlike truncated it is scoped to the answers that
	// read the index: the others of the same question are kept. Keeping
	// none made the index build ask each binding again for every
	// mutation, 280 times each on a 91-module server.
	partial  bool
	partials []*entry // the answers kept while an index is built
	prepared bool     // the indexes Eval builds first are built
	// pending are the unfinished answers of cycles, by the depth of the
	// question on the stack they read.
	pending [][]*entry

	lazy lazyIndexes
}

// lazyIndexes are project-wide indexes built on first use.
type lazyIndexes struct {
	extra       map[*pyast.Scope]map[string][]*pyast.Node // binding forms pyast's scopes do not hold (names.go)
	stores      map[string][]store                        // obj.attr = v and setattr(obj, "attr", v), by attribute name
	mutations   map[string][]mutation                     // x.append(v) and friends, by method name... all in one list
	mutList     []mutation
	mutBy       map[string][]mutation // mutations by container (mutationIndex)
	mutBuilding bool
	calls       map[string][]callSite // calls by the last name of their callee
	aliases     map[string][]string   // import aliases by the name imported (aliasesOf)
	varCalls    []callSite            // calls of a variable (variableCallee)
	// varDecorations are the decorations by a call's result
	// (@tool(label="a")), whose decorator is a variable callee.
	varDecorations []callSite
	asValue        map[string]bool // names used as values (usedAsValue)
	decorated      map[string][]*pyast.Function
	subs           map[*pyast.Class][]*pyast.Class // project subclasses by base
	subsBuilding   bool
	attrNames      map[string]bool          // see mayHoldFunction
	namespaces     map[string]*pyast.Module // namespace packages, see module
}

type memoKey struct {
	kind uint8
	p    any
	s    string
}

type entry struct {
	val     Set
	done    bool
	onStack bool
	depth   int  // on the stack: its depth there
	low     int  // unfinished: the lowest depth on the stack its answer read
	gen     int  // unfinished: the pass it was answered in
	partial bool // done, but read from an index being built (see Engine.partial)
}

// New returns the engine of a project's modules.
func New(mods []*pyast.Module, cfg Config) *Engine {
	if cfg.Budget <= 0 {
		cfg.Budget = 20000
	}
	e := &Engine{cfg: cfg, mods: mods, byName: map[string]*pyast.Module{}, byPath: map[string]*pyast.Module{},
		modOf: map[*pyast.Function]*pyast.Module{}, clsMod: map[*pyast.Class]*pyast.Module{}, memo: map[memoKey]*entry{},
		asides: map[*pyast.Module]bool{}}
	for _, m := range mods {
		e.byPath[m.Path] = m
		if m.Name != "" {
			e.byName[m.Name] = m
		}
		for _, f := range m.Funcs {
			e.modOf[f] = m
		}
		for _, c := range m.Classes {
			e.clsMod[c] = m
		}
	}
	return e
}

// Eval returns the values expression n of module m can have.
func (e *Engine) Eval(m *pyast.Module, n *pyast.Node) Set {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.question(m, n)
}

// question answers one top-level question (e.mu held).
func (e *Engine) question(m *pyast.Module, n *pyast.Node) Set {
	e.begin()
	return e.eval(m, n, nil)
}

// begin starts a top-level question (e.mu held): its budget is counted
// afresh.
func (e *Engine) begin() {
	if !e.prepared {
		// The project-wide indexes that evaluate code are built first,
		// from no question (built inside one, they would see its
		// unfinished answers as final).
		e.prepared = true
		e.steps, e.truncated, e.low = 0, false, 1<<30
		e.subclasses(nil)
		e.mutationIndex()
	}
	e.steps, e.truncated, e.partial = 0, false, false
	e.low = 1 << 30
}

// Callees returns the project functions a call can run: what its callee
// evaluates to (Functions).
func (e *Engine) Callees(m *pyast.Module, call *pyast.Node) []FuncRef {
	e.mu.Lock()
	defer e.mu.Unlock()
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil || e.externalName(m, callee) {
		return nil
	}
	if callee.Kind() == "attribute" && !e.mayHoldFunction(m.TextView(callee.ChildByFieldName("attribute"))) {
		return nil
	}
	return e.functions(e.question(m, callee))
}

// Enters returns the methods a with statement runs for its context manager
// expression cm (a with item's value): __aenter__ and __aexit__ for an
// async with, __enter__ and __exit__ else, of each project class an
// instance of which cm can be, found through the class's MRO, entry
// first. A @contextmanager function is a call's callee (Callees), not this.
func (e *Engine) Enters(m *pyast.Module, cm *pyast.Node, async bool) []FuncRef {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := [2]string{"__enter__", "__exit__"}
	if async {
		names = [2]string{"__aenter__", "__aexit__"}
	}
	var out []FuncRef
	seen := map[*pyast.Function]bool{}
	for _, v := range e.question(m, cm) {
		if v.Kind != Instance {
			continue
		}
		for _, name := range names {
			if f, fm := e.classMethod(v, name); f != nil && !seen[f] {
				seen[f] = true
				out = append(out, FuncRef{fm, f})
			}
		}
	}
	return out
}

// Iterates returns the methods a for statement runs for its iterable
// expression it, of each project class an instance of which it can be:
// __aiter__ and __anext__ for an async for (what __aiter__ returns steps),
// __iter__ and __next__ else, found through the MRO, the iterator's first;
// and for a generator object the expression holds (g = gen(); for x in g),
// the generator function, whose body each step runs. A for over a call of
// a generator function has the call's callee (Callees) instead.
func (e *Engine) Iterates(m *pyast.Module, it *pyast.Node, async bool) []FuncRef {
	e.mu.Lock()
	defer e.mu.Unlock()
	next := "__next__"
	if async {
		next = "__anext__"
	}
	var out []FuncRef
	seen := map[*pyast.Function]bool{}
	if it.Kind() != "call" {
		// A generator object held in a name or attribute (g = gen(); for x
		// in g): each step runs the generator function's body. (Iterating
		// a call is the call's own edge.)
		for _, v := range e.question(m, it) {
			if v.Kind == Generator && v.Func.Async() == async && !seen[v.Func] {
				seen[v.Func] = true
				out = append(out, FuncRef{v.Mod, v.Func})
			}
		}
	}
	if !e.mayHoldFunction(next) {
		return out // no class of the project can be stepped this way
	}
	for _, v := range e.question(m, it) {
		if v.Kind != Instance {
			continue
		}
		iter, next := e.protocol(v, async)
		for _, r := range append(iter, next...) {
			if !seen[r.Func] {
				seen[r.Func] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// mayHoldFunction reports whether an attribute named name can hold a
// project function, class or instance: the project binds that name
// somewhere (a def or class, a module-level or class-body name, a field a
// class body annotates, self.name
// or obj.name = v, setattr with that constant name), or sets attributes by
// names it computes. An attribute no code of the project binds is a
// library's (str.lower, dict.get): no project function.
func (e *Engine) mayHoldFunction(name string) bool {
	if e.lazy.attrNames == nil {
		names := map[string]bool{}
		for _, m := range e.mods {
			for _, f := range m.Funcs {
				names[f.Name] = true
			}
			for _, c := range m.Classes {
				names[c.Name] = true
				for a := range c.Attrs {
					names[a] = true
				}
				for _, a := range annotatedNames(m, c) {
					names[a] = true // a field: spec.handler(...)
				}
			}
			for _, n := range m.Scope.Names() {
				names[n] = true
			}
			for n := range e.extraBindings(m, m.Scope) {
				names[n] = true
			}
			for n := range m.Nodes("assignment") {
				if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "attribute" {
					names[m.TextView(l.ChildByFieldName("attribute"))] = true
				}
			}
			for call := range m.Nodes("call") {
				if c := pyast.Unparen(pyast.Callee(call)); c != nil && c.Kind() == "identifier" && m.TextView(c) == "setattr" {
					pos, _ := m.Args(call)
					if len(pos) < 2 {
						continue
					}
					if s, ok := stringConst(m, pyast.Unparen(pos[1])); ok {
						names[s] = true
					} else {
						names["\x00any"] = true
					}
				}
			}
		}
		e.lazy.attrNames = names
	}
	return e.lazy.attrNames[name] || e.lazy.attrNames["\x00any"]
}

// module finds a project module by dotted name.
func (e *Engine) module(name string) *pyast.Module {
	if m := e.byName[name]; m != nil {
		return m
	}
	if m := e.moduleFile(name); m != nil {
		return m
	}
	return e.namespace(name)
}

// moduleFile returns the project module Config.ModuleFiles finds for name.
func (e *Engine) moduleFile(name string) *pyast.Module {
	if e.cfg.ModuleFiles != nil {
		for _, p := range e.cfg.ModuleFiles(name) {
			if m := e.byPath[p]; m != nil {
				return m
			}
		}
	}
	return nil
}

// namespace returns the namespace package (PEP 420: a folder with no
// __init__.py) a module name names when project modules are below it
// (app.tools for app/tools/search.py), else nil. It is an empty module
// (nothing binds in it), whose attributes are its submodules: `from app
// import tools; tools.search.find()`. Its names are the dotted folder
// paths above the project's modules that name no module (a module's own
// name starts at the nearest folder without __init__.py; any dotted
// suffix of its path finds it, see Config.ModuleFiles). It is not one of
// the project's modules: no index walks it.
func (e *Engine) namespace(name string) *pyast.Module {
	if e.lazy.namespaces == nil {
		e.lazy.namespaces = map[string]*pyast.Module{}
		asked := map[string]bool{} // each dotted folder path once: modules share their folders
		for _, m := range e.mods {
			segs := strings.Split(strings.TrimSuffix(strings.TrimSuffix(m.Path, ".py"), "/__init__"), "/")
			for i := range segs {
				for j := i + 1; j < len(segs); j++ {
					q := strings.Join(segs[i:j], ".")
					if asked[q] {
						continue
					}
					asked[q] = true
					if e.byName[q] != nil || e.moduleFile(q) != nil {
						continue
					}
					if ns, err := pyast.Parse(strings.Join(segs[:j], "/")+"/__init__.py", q, nil); err == nil {
						e.lazy.namespaces[q] = ns
					}
				}
			}
		}
	}
	return e.lazy.namespaces[name]
}

// memoised answers key by compute, once. A question asked again while it
// is being answered (a recursive definition) gets what is known so far;
// the question at the head of such a cycle (the lowest one on the stack
// that a question of the cycle read) is answered again, in a new pass over
// the cycle's questions, until no answer grows (a fixpoint: answers only
// grow, and unions are bounded). The cycle's answers are final when its
// head's is, as in Tarjan's algorithm for strongly connected components.
func (e *Engine) memoised(key memoKey, compute func() Set) Set {
	en := e.memo[key]
	if en != nil {
		switch {
		case en.done:
			e.partial = e.partial || en.partial
			return en.val
		case en.onStack:
			e.low = min(e.low, en.depth)
			return en.val
		case en.gen == e.gen:
			e.low = min(e.low, en.low)
			return en.val
		}
	}
	e.steps++
	e.computed++
	if e.steps > e.cfg.Budget {
		if !e.truncated {
			e.truncated = true
			e.truncations++
		}
		return Set{unknown("evaluation budget")}
	}
	if en == nil {
		en = &entry{}
		e.memo[key] = en
	}
	e.stack++
	en.onStack, en.depth = true, e.stack
	saved := e.low
	savedPartial := e.partial
	e.partial = false
	low := 1 << 30
	for iter := 0; ; iter++ {
		e.low = 1 << 30
		changes := e.changes
		n := len(en.val)
		en.val = en.val.union(compute())
		if len(en.val) != n {
			e.changes++
		}
		low = e.low
		if low == en.depth && e.changes != changes && iter < 8 {
			e.gen++ // a new pass over the cycle's questions
			continue
		}
		break
	}
	en.onStack = false
	e.stack--
	d := en.depth
	partial := e.partial
	e.partial = savedPartial || partial
	if low < d {
		// Part of a cycle headed further up: answered again in its passes.
		en.low, en.gen = low, e.gen
		for len(e.pending) <= low {
			e.pending = append(e.pending, nil)
		}
		e.pending[low] = append(e.pending[low], en)
		for i := d; i < len(e.pending); i++ {
			e.pending[low] = append(e.pending[low], e.pending[i]...)
		}
		if d < len(e.pending) {
			e.pending = e.pending[:d]
		}
		e.low = min(saved, low)
		return en.val
	}
	if e.truncated {
		// Cut short by the budget: not an answer to keep.
		delete(e.memo, key)
		e.low = saved
		return en.val
	}
	if partial {
		// Read from an index being built: an answer until it is built,
		// as are the unfinished ones of its cycle.
		en.done, en.partial = true, true
		e.partials = append(e.partials, en)
		for i := d; i < len(e.pending); i++ {
			for _, p := range e.pending[i] {
				p.done, p.partial = true, true
				e.partials = append(e.partials, p)
			}
		}
		if d < len(e.pending) {
			e.pending = e.pending[:d]
		}
		e.low = saved
		return en.val
	}
	en.done = true
	for i := d; i < len(e.pending); i++ {
		for _, p := range e.pending[i] {
			p.done = true
		}
	}
	if d < len(e.pending) {
		e.pending = e.pending[:d]
	}
	e.low = saved
	return en.val
}

// forgetPartial forgets the answers read from an index being built, once
// it is: asked again, they are answered afresh.
func (e *Engine) forgetPartial() {
	for _, en := range e.partials {
		*en = entry{gen: -1}
	}
	e.partials = e.partials[:0]
}

// resolveQual returns what a qualified name (an import's target) is: a
// project module or a member of one, else an external name.
func (e *Engine) resolveQual(q string, env *env) Set {
	return e.memoised(memoKey{kind: kQual, s: q}, func() Set {
		parts := strings.Split(q, ".")
		for i := len(parts); i >= 1; i-- {
			m := e.module(strings.Join(parts[:i], "."))
			if m == nil {
				continue
			}
			vals := Set{&Value{Kind: Module, Mod: m}}
			for _, a := range parts[i:] {
				vals = e.attrOfSet(vals, a, nil)
			}
			if i < len(parts) && allMissing(vals) {
				// A project module without the member: the name is a
				// library's that a project file shares a name with (a
				// package mcp_agent/mcp beside from mcp.server import
				// Server).
				break
			}
			return vals
		}
		return Set{&Value{Kind: External, Name: q}}
	})
}

// allMissing reports whether s holds only unknowns of attributes nothing
// binds.
func allMissing(s Set) bool {
	for _, v := range s {
		if v.Kind != Unknown || !v.Missing {
			return false
		}
	}
	return len(s) > 0
}

const (
	kNode uint8 = iota
	kBinding
	kReturns
	kAttr
	kQual
	kElems
	kParam
	kModAttr
)

// externalName reports whether callee is a name or attribute chain whose
// root is a builtin or an import of a module outside the project: its value
// is an external name the engine need not evaluate to know it runs no
// project function. (A project module's name as the root is not external;
// nor is a builtin the engine follows.)
func (e *Engine) externalName(m *pyast.Module, callee *pyast.Node) bool {
	root := pyast.Unparen(callee)
	for root != nil && root.Kind() == "attribute" {
		root = pyast.Unparen(root.ChildByFieldName("object"))
	}
	if root == nil || root.Kind() != "identifier" {
		return false
	}
	name := m.TextView(root)
	for p := root.Parent(); p != nil && !pyast.IsFunctionBoundary(p); p = p.Parent() {
		switch p.Kind() {
		case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
			return false // maybe the comprehension's own variable
		}
	}
	if pyast.Ancestor(root, "lambda") != nil {
		return false
	}
	sc, bs, extra := e.lookupName(m, m.ScopeAt(root), name)
	if sc == nil {
		if len(m.Stars) > 0 {
			return false
		}
		switch name {
		case "getattr", "super", "next", "staticmethod", "classmethod", "property":
			return false
		}
		return true
	}
	if len(extra) > 0 {
		return false
	}
	for _, b := range bs {
		if b.Kind != pyast.BindImport {
			return false
		}
		for _, t := range b.Targets() {
			if e.inProject(t) {
				return false
			}
		}
	}
	return true
}

// inProject reports whether a prefix of qualified name q names a project
// module.
func (e *Engine) inProject(q string) bool {
	for {
		if e.module(q) != nil {
			return true
		}
		i := strings.LastIndexByte(q, '.')
		if i < 0 {
			return false
		}
		q = q[:i]
	}
}
