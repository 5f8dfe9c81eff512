package values

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// env binds the parameters of one function to values: a decorator applied
// to one function (its first parameter is that function, not every
// function it decorates anywhere).
type env struct {
	fn   *pyast.Function
	args map[int]Set // by parameter index
	key  string
}

func (v *env) keyOf() string {
	if v == nil {
		return ""
	}
	return v.key
}

// extraBindings returns the binding forms of scope sc that pyast's scopes do
// not hold, by name: for-loop targets, walrus targets, augmented
// assignments, names declared global, with items that are not calls,
// annotations without a value (x: T) and except ... as name. Built on first
// use for each scope, with pyast.WalkCode (the scope's own code).
func (e *Engine) extraBindings(m *pyast.Module, sc *pyast.Scope) map[string][]*pyast.Node {
	if e.lazy.extra == nil {
		e.lazy.extra = map[*pyast.Scope]map[string][]*pyast.Node{}
	}
	if x, ok := e.lazy.extra[sc]; ok {
		return x
	}
	var root *pyast.Node
	switch {
	case sc.Func != nil:
		root = sc.Func.Body
	case sc.Class != nil:
		root = sc.Class.Node.ChildByFieldName("body")
	default:
		root = m.Root
	}
	x := map[string][]*pyast.Node{}
	add := func(name string, n *pyast.Node) { x[name] = append(x[name], n) }
	var targets func(t, at *pyast.Node)
	targets = func(t, at *pyast.Node) {
		t = pyast.Unparen(t)
		if t == nil {
			return
		}
		switch t.Kind() {
		case "identifier":
			add(m.TextView(t), at)
		case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list":
			for _, c := range pyast.NamedChildren(t) {
				targets(c, at)
			}
		case "list_splat_pattern":
			targets(t.NamedChild(0), at)
		}
	}
	if root != nil {
		pyast.WalkCode(root, func(n *pyast.Node) bool {
			switch n.Kind() {
			case "for_statement":
				targets(n.ChildByFieldName("left"), n)
			case "named_expression":
				if nm := n.ChildByFieldName("name"); nm != nil {
					add(m.TextView(nm), n)
				}
			case "augmented_assignment":
				if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "identifier" {
					add(m.TextView(l), n)
				}
			case "global_statement", "nonlocal_statement":
				for _, c := range pyast.NamedChildren(n) {
					if c.Kind() == "identifier" {
						add(m.TextView(c), n)
					}
				}
			case "assignment":
				if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "identifier" && n.ChildByFieldName("right") == nil && n.ChildByFieldName("type") != nil {
					add(m.TextView(l), n) // x: T
				}
			case "with_item":
				if v := n.ChildByFieldName("value"); v != nil && v.Kind() == "as_pattern" {
					if inner := pyast.Unparen(v.NamedChild(0)); inner != nil && inner.Kind() != "call" && inner.Kind() != "await" {
						if a := v.ChildByFieldName("alias"); a != nil {
							targets(a.NamedChild(0), n)
						}
					}
				}
			case "except_clause":
				for _, c := range pyast.NamedChildren(n) {
					if c.Kind() == "as_pattern" {
						if a := c.ChildByFieldName("alias"); a != nil {
							targets(a.NamedChild(0), n)
						}
					}
				}
			case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
				return true // their variables are their own (comprehensionVar)
			}
			return true
		})
	}
	// What functions bind to names they declare global (for the module)
	// or nonlocal (for the nearest enclosing function that binds them).
	kind := ""
	switch {
	case sc == m.Scope:
		kind = "global_statement"
	case sc.Func != nil:
		kind = "nonlocal_statement"
	}
	if kind != "" {
		e.lazy.extra[sc] = x
		for _, f := range m.Funcs {
			if f.Scope == nil || f.Scope == sc || kind == "nonlocal_statement" && !innerOf(f.Scope, sc) {
				continue
			}
			for name, nodes := range e.extraBindings(m, f.Scope) {
				if !declares(nodes, kind) || kind == "nonlocal_statement" && e.nonlocalOwner(m, f.Scope, name) != sc {
					continue
				}
				for _, b := range f.Scope.Local(name) {
					if b.Node != nil && b.Node.Kind() == "assignment" {
						x[name] = append(x[name], b.Node)
					}
				}
				for _, n := range nodes {
					if n.Kind() != kind {
						x[name] = append(x[name], n)
					}
				}
			}
		}
	}
	e.lazy.extra[sc] = x
	return x
}

// innerOf reports whether scope s is nested in scope outer.
func innerOf(s, outer *pyast.Scope) bool {
	for p := s.Parent; p != nil; p = p.Parent {
		if p == outer {
			return true
		}
	}
	return false
}

// declares reports whether one of a name's binding nodes is of kind kind
// (a global or nonlocal statement).
func declares(nodes []*pyast.Node, kind string) bool {
	for _, n := range nodes {
		if n.Kind() == kind {
			return true
		}
	}
	return false
}

// nonlocalOwner returns the function scope a "nonlocal name" in scope s
// refers to: the nearest enclosing function scope that binds name itself
// (not by a nonlocal declaration of its own, which sends it further out).
func (e *Engine) nonlocalOwner(m *pyast.Module, s *pyast.Scope, name string) *pyast.Scope {
	for sc := s.Parent; sc != nil && sc != m.Scope; sc = sc.Parent {
		if sc.Func == nil {
			continue // a class body is not an enclosing scope of its methods
		}
		if len(sc.Local(name)) > 0 {
			return sc
		}
	}
	return nil
}

// lookupName finds the scope that binds name, seen from scope s, as Python
// does: the nearest enclosing function or module scope (a class body is
// visible only to its own code), a global declaration sending it to the
// module. It returns the pyast bindings and the other binding nodes there.
func (e *Engine) lookupName(m *pyast.Module, s *pyast.Scope, name string) (*pyast.Scope, []*pyast.Binding, []*pyast.Node) {
	for sc := s; sc != nil; sc = sc.Parent {
		if sc != s && sc.Func == nil && sc.Parent != nil {
			continue
		}
		bs := sc.Local(name)
		extra := e.extraBindings(m, sc)[name]
		if len(bs) == 0 && len(extra) == 0 {
			continue
		}
		for _, x := range extra {
			switch {
			case x.Kind() == "global_statement" && sc != m.Scope:
				return e.lookupName(m, m.Scope, name)
			case x.Kind() == "nonlocal_statement" && sc.Parent != nil && sc != m.Scope:
				return e.lookupName(m, sc.Parent, name)
			}
		}
		return sc, bs, extra
	}
	return nil, nil, nil
}

// nameValues returns what identifier n (name) of module m can be.
func (e *Engine) nameValues(m *pyast.Module, n *pyast.Node, name string, ev *env) Set {
	// A comprehension's or a lambda's own variable.
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
			if vals, ok := e.comprehensionVar(m, p, n, name, ev); ok {
				return vals
			}
		case "lambda":
			if ps := p.ChildByFieldName("parameters"); ps != nil {
				for _, c := range pyast.NamedChildren(ps) {
					id := c
					if c.Kind() != "identifier" {
						id = c.ChildByFieldName("name")
					}
					if id != nil && m.TextView(id) == name {
						if d := c.ChildByFieldName("value"); d != nil {
							return e.eval(m, d, ev)
						}
						return Set{unknown("a lambda's parameter")}
					}
				}
			}
		case "function_definition", "class_definition":
			p = nil
		}
		if p == nil {
			break
		}
	}
	sc, bs, extra := e.lookupName(m, m.ScopeAt(n), name)
	if sc == nil {
		return e.unboundName(m, name)
	}
	if sc == m.Scope {
		// Read at module level: the bindings made before this statement.
		pos := ^uint(0)
		if m.ScopeAt(n) == m.Scope && m.FuncAt(n) == nil {
			pos = n.StartByte()
		}
		bs, extra = finalBindings(m, bs, extra, pos)
	}
	var out Set
	for _, b := range bs {
		out = out.union(e.bindingValues(m, b, ev))
	}
	for _, x := range extra {
		out = out.union(e.extraValues(m, sc, x, name, ev))
	}
	return out
}

// comprehensionVar resolves name when a for clause of comprehension comp
// binds it (and n is not in that clause's own iterable, which runs
// outside it... for the first clause).
func (e *Engine) comprehensionVar(m *pyast.Module, comp, n *pyast.Node, name string, ev *env) (Set, bool) {
	for _, c := range pyast.NamedChildren(comp) {
		if c.Kind() != "for_in_clause" {
			continue
		}
		left, right := c.ChildByFieldName("left"), c.ChildByFieldName("right")
		if right != nil && n.StartByte() >= right.StartByte() && n.EndByte() <= right.EndByte() {
			continue
		}
		if idx, ok := targetIndex(m, left, name); ok {
			return e.memoised(memoKey{kind: kNode, p: c, s: "for " + name + ev.keyOf()}, func() Set {
				return e.unpack(e.iterate(e.eval(m, right, ev)), idx)
			}), true
		}
	}
	return nil, false
}

// targetIndex reports whether a for target binds name, and where: -1 for
// the whole value, i for item i of a tuple target.
func targetIndex(m *pyast.Module, t *pyast.Node, name string) (int, bool) {
	t = pyast.Unparen(t)
	if t == nil {
		return 0, false
	}
	if t.Kind() == "identifier" {
		return -1, m.TextView(t) == name
	}
	switch t.Kind() {
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list":
		for i, c := range pyast.NamedChildren(t) {
			if c = pyast.Unparen(c); c.Kind() == "identifier" && m.TextView(c) == name {
				return i, true
			}
		}
	}
	return 0, false
}

// unpack returns item i of each value (-1: the values themselves).
func (e *Engine) unpack(vals Set, i int) Set {
	if i < 0 {
		return vals
	}
	var out Set
	for _, v := range vals {
		out = out.union(e.item(v, i))
	}
	return out
}

// unboundName is a name no scope of m binds: one a star import brings in,
// else a builtin.
func (e *Engine) unboundName(m *pyast.Module, name string) Set {
	for i := len(m.Stars) - 1; i >= 0; i-- {
		src := e.module(m.Stars[i])
		if src == nil {
			continue
		}
		if e.starExports(src, name) {
			return e.resolveQual(m.Stars[i]+"."+name, nil)
		}
	}
	return Set{&Value{Kind: External, Name: name}}
}

// starExports reports whether "from src import *" binds name: a name in
// its __all__ (the strings the engine finds it holds), else a name bound
// at its module level without a leading underscore.
func (e *Engine) starExports(src *pyast.Module, name string) bool {
	if len(src.Scope.Local("__all__")) > 0 {
		vals := e.iterate(e.moduleAttr(src, "__all__"))
		for _, v := range vals {
			if v.Kind == Unknown || v.Kind == Str && v.Text == name {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(name, "_") {
		return false
	}
	return len(src.Scope.Local(name)) > 0 || len(e.extraBindings(src, src.Scope)[name]) > 0 || len(src.Stars) > 0
}

// bindingValues returns the values a pyast binding gives its name.
func (e *Engine) bindingValues(m *pyast.Module, b *pyast.Binding, ev *env) Set {
	if b.Kind == pyast.BindParam {
		return e.paramBinding(m, b, ev)
	}
	return e.memoised(memoKey{kind: kBinding, p: b, s: ev.keyOf()}, func() Set {
		switch b.Kind {
		case pyast.BindImport:
			return e.importValues(m, b)
		case pyast.BindDef:
			n := b.Node
			if n.Kind() == "decorated_definition" {
				n = n.ChildByFieldName("definition")
			}
			if n == nil {
				return Set{unknown("a definition without a body")}
			}
			if n.Kind() == "class_definition" {
				for _, c := range m.Classes {
					if c.Node == n {
						return e.decorate(m, &Value{Kind: Class, Mod: m, Class: c}, c.Decorators)
					}
				}
				return Set{unknown("a class not indexed")}
			}
			f := m.FuncByNode(n)
			if f == nil {
				return Set{unknown("a function not indexed")}
			}
			return e.decorate(m, &Value{Kind: Function, Mod: m, Func: f}, f.Decorators)
		}
		n := b.Node
		switch n.Kind() {
		case "assignment":
			v := pyast.AssignedValue(n)
			if v == nil {
				return nil
			}
			return e.unpack(e.eval(m, v, ev), m.Unpacked(b))
		case "with_item":
			return e.entered(m, b.Value(), ev)
		}
		return Set{unknown("a " + n.Kind() + " binding")}
	})
}

// importValues resolves an import binding: "import a.b" binds a (module
// a), "import a.b as c" module a.b, "from x import y" x.y (a member of
// module x, or its submodule y).
func (e *Engine) importValues(m *pyast.Module, b *pyast.Binding) Set {
	var out Set
	for _, t := range b.Targets() {
		out = out.union(e.resolveQual(t, nil))
	}
	return out
}

// extraValues returns the values binding node x (see extraBindings) gives
// name, in scope sc.
func (e *Engine) extraValues(m *pyast.Module, sc *pyast.Scope, x *pyast.Node, name string, ev *env) Set {
	return e.memoised(memoKey{kind: kNode, p: x, s: "bind " + name + ev.keyOf()}, func() Set {
		switch x.Kind() {
		case "for_statement":
			idx, _ := targetIndex(m, x.ChildByFieldName("left"), name)
			return e.unpack(e.iterateAs(e.eval(m, x.ChildByFieldName("right"), ev), pyast.HasChildKind(x, "async")), idx)
		case "named_expression":
			return e.eval(m, x.ChildByFieldName("value"), ev)
		case "augmented_assignment":
			return e.eval(m, x.ChildByFieldName("right"), ev)
		case "assignment":
			if v := pyast.AssignedValue(x); v != nil { // a function's assignment to a global
				idx, _ := targetIndex(m, x.ChildByFieldName("left"), name)
				return e.unpack(e.eval(m, v, ev), idx)
			}
			return e.annotationValues(m, sc, x.ChildByFieldName("type")) // x: T
		case "with_item":
			v := x.ChildByFieldName("value")
			return e.unpack(e.entered(m, v.NamedChild(0), ev), -1)
		case "except_clause":
			return Set{unknown("an exception caught")}
		}
		return Set{unknown("a " + x.Kind() + " binding")}
	})
}

// entered returns what "with cm as x" binds x to: what the __enter__ (or
// __aenter__) of a project class returns; for a library's context manager,
// what its __enter__ returns (a library value: "async with
// httpx.AsyncClient() as c" makes c.get a library's method, not a call the
// engine cannot tell).
func (e *Engine) entered(m *pyast.Module, cm *pyast.Node, ev *env) Set {
	cm = pyast.Unparen(cm)
	if cm != nil && cm.Kind() == "await" {
		cm = pyast.Unparen(cm.NamedChild(0))
	}
	var out Set
	for _, v := range e.eval(m, cm, ev) {
		if v.Kind == Instance {
			found := false
			for _, name := range []string{"__enter__", "__aenter__"} {
				if f, fm := e.classMethod(&Value{Kind: Class, Class: v.Class, Mod: v.Mod}, name); f != nil {
					out = out.union(e.returns(fm, f, nil))
					found = true
				}
			}
			if found {
				continue
			}
		}
		switch v.Kind {
		case External:
			out = out.add(&Value{Kind: ExtResult, Name: v.Name + ".__enter__"})
			continue
		case ExtResult: // what a call returned: its __enter__, as attrs spells it
			out = out.add(&Value{Kind: ExtResult, Name: v.Name + "().__enter__"})
			continue
		}
		out = out.add(unknown("what a context manager enters"))
	}
	return out
}

// finalBindings keeps the module-level bindings of a name that can hold
// at module-level statement pos (^0: once the module has run, what its
// functions and other modules read): the module-level bindings made before
// pos, from the last one made unconditionally (a def, class, import or
// assignment directly in the module) on; a binding under an if, try or
// loop, an augmented assignment (it updates the value) and a function's
// global assignment (made when it runs) do not end the ones before.
func finalBindings(m *pyast.Module, bs []*pyast.Binding, extra []*pyast.Node, pos uint) ([]*pyast.Binding, []*pyast.Node) {
	before := func(n *pyast.Node) bool {
		if inFunction(m, n) {
			return true
		}
		st := topStatement(m, n)
		if st == nil || st.EndByte() <= pos {
			return true
		}
		// A compound statement that holds the read (a for loop's target,
		// a with item, a walrus in an if) binds before its body runs; a
		// simple one (x = x + [...]) after its value is read.
		switch st.Kind() {
		case "for_statement", "while_statement", "with_statement", "if_statement", "try_statement", "decorated_definition":
			return st.StartByte() <= pos
		}
		return false
	}
	var early []*pyast.Binding
	for _, b := range bs {
		if b.Node == nil || before(b.Node) {
			early = append(early, b)
		}
	}
	var earlyX []*pyast.Node
	for _, x := range extra {
		if before(x) {
			earlyX = append(earlyX, x)
		}
	}
	bs, extra = early, earlyX
	cut := uint(0)
	for _, b := range bs {
		if b.Node == nil || inFunction(m, b.Node) {
			continue
		}
		if st := pyast.Statement(b.Node); st != nil && st.Parent() == m.Root && st.StartByte() > cut {
			cut = st.StartByte()
		}
	}
	if cut == 0 {
		return bs, extra
	}
	var kb []*pyast.Binding
	for _, b := range bs {
		if b.Node == nil || b.Node.StartByte() >= cut || inFunction(m, b.Node) {
			kb = append(kb, b)
		}
	}
	var kx []*pyast.Node
	for _, x := range extra {
		if x.StartByte() >= cut || inFunction(m, x) {
			kx = append(kx, x)
		}
	}
	return kb, kx
}

// topStatement returns the module-level statement that holds n.
func topStatement(m *pyast.Module, n *pyast.Node) *pyast.Node {
	for c := n; c != nil; c = c.Parent() {
		if c.Parent() == m.Root {
			return c
		}
	}
	return nil
}

// inFunction reports whether n is inside a def's body (a def's own node is
// not).
func inFunction(m *pyast.Module, n *pyast.Node) bool {
	f := m.FuncAt(n)
	return f != nil && f.Node != n && f.Stmt != n
}
