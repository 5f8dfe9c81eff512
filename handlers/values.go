package handlers

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Values kept in collections: handlers gathered in a list or dict in one
// module (TOOLS = [get_doc, upsert_doc], a registry a custom decorator
// fills) and registered in a loop in another (for t in TOOLS:
// mcp.add_tool(t)), and registration functions called in a loop. A
// collection is a variable bound to a list, tuple, set or dict literal,
// anywhere in the project, plus what the project adds to it (append, extend,
// add, insert, update, setdefault, name[key] = value).

// valueAt is an expression with the module it is in.
type valueAt struct {
	m *pyast.Module
	n *pyast.Node
}

// collectionKey names the collection variable expr refers to (its
// qualified name; module-level names canonical through re-exports) and
// returns its bindings with the module that holds them.
func (b *builder) collectionKey(m *pyast.Module, expr *pyast.Node) (string, []valueAt) {
	expr = pyast.Unparen(expr)
	if expr == nil || (expr.Kind() != "identifier" && expr.Kind() != "attribute") {
		return "", nil
	}
	for _, q := range m.Resolve(expr) {
		if sym := b.lookup(q); len(sym.bindings) > 0 {
			var vals []valueAt
			key := q
			for _, bd := range sym.bindings {
				if t := bd.Targets(); len(t) > 0 {
					key = t[0]
				}
				if v := bd.Value(); v != nil {
					vals = append(vals, valueAt{sym.module, v})
				}
			}
			return key, vals
		}
	}
	if expr.Kind() == "identifier" { // a local variable
		var vals []valueAt
		key := ""
		for _, bd := range m.ScopeAt(expr).Lookup(m.TextView(expr)) {
			t := bd.Targets()
			if bd.Kind != pyast.BindValue || len(t) == 0 {
				continue
			}
			key = t[0]
			if v := bd.Value(); v != nil {
				vals = append(vals, valueAt{m, v})
			}
		}
		return key, vals
	}
	return "", nil
}

// elems returns the expressions a collection expression can hold: the items
// of a literal (the values of a dict), of a variable bound to one and of
// what the project adds to it, through list(x), x.values() and the like.
func (b *builder) elems(m *pyast.Module, expr *pyast.Node, depth int) []valueAt {
	expr = pyast.Unparen(expr)
	if expr == nil || depth > 6 {
		return nil
	}
	switch expr.Kind() {
	case "list", "tuple", "set", "expression_list":
		var out []valueAt
		for _, el := range pyast.NamedChildren(expr) {
			switch el.Kind() {
			case "comment":
			case "list_splat":
				if el.NamedChildCount() > 0 {
					out = append(out, b.elems(m, el.NamedChild(0), depth+1)...)
				}
			default:
				out = append(out, valueAt{m, el})
			}
		}
		return out
	case "dictionary":
		var out []valueAt
		for _, p := range pyast.NamedChildren(expr) {
			switch p.Kind() {
			case "pair":
				out = append(out, valueAt{m, p.ChildByFieldName("value")})
			case "dictionary_splat":
				if p.NamedChildCount() > 0 {
					out = append(out, b.elems(m, p.NamedChild(0), depth+1)...)
				}
			}
		}
		return out
	case "call":
		callee := pyast.Unparen(pyast.Callee(expr))
		pos, _ := m.Args(expr)
		if obj, attr := lastAttr(m, callee); obj != nil && (attr == "values" || attr == "copy") {
			return b.elems(m, obj, depth+1)
		}
		for _, q := range m.Resolve(callee) {
			switch q {
			case "list", "tuple", "set", "sorted", "reversed", "frozenset":
				if len(pos) > 0 {
					return b.elems(m, pos[0], depth+1)
				}
			}
		}
	case "binary_operator": // A + B
		return append(b.elems(m, expr.ChildByFieldName("left"), depth+1), b.elems(m, expr.ChildByFieldName("right"), depth+1)...)
	case "identifier", "attribute":
		key, vals := b.collectionKey(m, expr)
		if key == "" {
			return nil
		}
		var out []valueAt
		for _, v := range vals {
			out = append(out, b.elems(v.m, v.n, depth+1)...)
		}
		return append(out, b.additions()[key]...)
	}
	return nil
}

// itemPairs returns the key and value expressions of a dict expression
// iterated with .items(): for name, fn in TOOLS.items().
func (b *builder) itemValues(m *pyast.Module, right *pyast.Node) ([]valueAt, bool) {
	right = pyast.Unparen(right)
	if right == nil || right.Kind() != "call" {
		return nil, false
	}
	obj, attr := lastAttr(m, pyast.Callee(right))
	if obj == nil || attr != "items" {
		return nil, false
	}
	return b.elems(m, obj, 0), true
}

// additions indexes what the project adds to collection variables, by
// collection key. Computed once, by the first builder or fork that asks;
// while it builds it, an extend() of a collection asks again and gets what
// is indexed so far.
func (b *builder) additions() map[string][]valueAt {
	if b.added != nil {
		return b.added
	}
	lz := b.lazy
	lz.addedMu.Lock()
	defer lz.addedMu.Unlock()
	if lz.added == nil {
		b.buildAdditions()
		lz.added = b.added
	}
	b.added = lz.added
	return b.added
}

func (b *builder) buildAdditions() {
	b.added = map[string][]valueAt{}
	add := func(key string, v valueAt) {
		if key != "" && v.n != nil {
			b.added[key] = append(b.added[key], v)
		}
	}
	for _, m := range b.mods {
		for call := range m.Nodes("call") {
			obj, attr := lastAttr(m, pyast.Callee(call))
			if obj == nil {
				continue
			}
			pos, kw := m.Args(call)
			switch attr {
			case "append", "add", "appendleft":
				if len(pos) == 1 {
					key, _ := b.collectionKey(m, obj)
					add(key, valueAt{m, pos[0]})
				}
			case "insert", "setdefault":
				if len(pos) == 2 {
					key, _ := b.collectionKey(m, obj)
					add(key, valueAt{m, pos[1]})
				}
			case "extend", "update":
				key, _ := b.collectionKey(m, obj)
				if key == "" {
					continue
				}
				if len(pos) == 1 {
					b.added[key] = append(b.added[key], b.elemsNoAdditions(m, pos[0])...)
				}
				for _, v := range kw {
					add(key, valueAt{m, v})
				}
			}
		}
		for n := range m.Nodes("assignment") {
			left, right := pyast.Unparen(n.ChildByFieldName("left")), n.ChildByFieldName("right")
			if left == nil || right == nil || left.Kind() != "subscript" {
				continue
			}
			key, _ := b.collectionKey(m, left.ChildByFieldName("value"))
			add(key, valueAt{m, right})
		}
	}
}

// elemsNoAdditions is elems of a literal only (used while the additions
// index is being built).
func (b *builder) elemsNoAdditions(m *pyast.Module, expr *pyast.Node) []valueAt {
	switch pyast.Unparen(expr).Kind() {
	case "list", "tuple", "set", "dictionary":
		return b.elems(m, expr, 0)
	}
	return []valueAt{{m, expr}}
}

// loopValues resolves a for-loop variable (for fn in TOOLS, for name, fn in
// TOOLS.items(), for name, fn in [("a", a)]) to the expressions it takes.
func (b *builder) loopValues(m *pyast.Module, id *pyast.Node) []valueAt {
	name := m.Text(id)
	for loop := pyast.Ancestor(id, "for_statement"); loop != nil; loop = pyast.Ancestor(loop, "for_statement") {
		if m.FuncAt(loop) != m.FuncAt(id) {
			return nil
		}
		left, right := pyast.Unparen(loop.ChildByFieldName("left")), loop.ChildByFieldName("right")
		if left == nil || right == nil {
			continue
		}
		if left.Kind() == "identifier" {
			if m.Text(left) != name {
				continue
			}
			return b.elems(m, right, 0)
		}
		// a tuple target: take the element at the variable's position
		idx := -1
		parts := pyast.NamedChildren(left)
		for i, p := range parts {
			if p.Kind() == "identifier" && m.Text(p) == name {
				idx = i
			}
		}
		if idx < 0 {
			continue
		}
		if vals, ok := b.memberValues(m, right, loop); ok {
			if len(parts) == 2 && idx == 1 {
				return vals
			}
			return nil
		}
		if vals, ok := b.itemValues(m, right); ok {
			if len(parts) == 2 && idx == 1 {
				return vals
			}
			return nil
		}
		var out []valueAt
		for _, el := range b.elems(m, right, 0) {
			t := pyast.Unparen(el.n)
			if t.Kind() != "tuple" && t.Kind() != "list" {
				continue
			}
			if items := pyast.NamedChildren(t); idx < len(items) {
				out = append(out, valueAt{el.m, items[idx]})
			}
		}
		return out
	}
	return nil
}

// callees resolves a callee expression to the project functions it can
// run: a name of one, or a loop variable over a collection of them (for reg
// in REGISTRARS: reg(mcp)).
func (b *builder) callees(m *pyast.Module, callee *pyast.Node) []FuncRef {
	return b.calleesOfNames(m, callee, b.resolveNames(m, callee))
}

// calleesOfNames is callees with the callee's names resolved (resolveNames).
func (b *builder) calleesOfNames(m *pyast.Module, callee *pyast.Node, ns names) []FuncRef {
	if r, ok := b.funcOfNames(m, callee, ns); ok {
		out := []FuncRef{r}
		if obj, attr := lastAttr(m, callee); obj != nil && r.Func.Class != nil && r.Func.Name == attr {
			// obj.method() on an instance typed by a base class (self in
			// the base, an annotation, a factory's declared return type)
			// can run every override in the project's subclasses.
			for _, o := range b.overrides(r.Func.Class, attr) {
				out = append(out, o)
			}
		}
		return out
	}
	callee = pyast.Unparen(callee)
	if obj, attr := lastAttr(m, callee); obj != nil && pyast.Unparen(obj).Kind() == "identifier" {
		// for mod in [search, reports]: mod.register(mcp)
		obj = pyast.Unparen(obj)
		if len(m.ScopeAt(obj).Lookup(m.TextView(obj))) > 0 {
			return nil
		}
		var out []FuncRef
		for _, v := range b.loopValues(m, obj) {
			for _, q := range v.m.Resolve(v.n) {
				if sym := b.lookup(q + "." + attr); sym.fn != nil {
					out = append(out, FuncRef{sym.module, sym.fn})
				}
			}
		}
		return out
	}
	if callee == nil || callee.Kind() != "identifier" {
		return nil
	}
	// Loop targets are not bound in pyast's scopes: a bound name or a
	// builtin is no loop variable.
	name := m.Text(callee)
	if builtinNames[name] || len(m.ScopeAt(callee).Lookup(name)) > 0 {
		return nil
	}
	var out []FuncRef
	for _, v := range b.loopValues(m, callee) {
		if r, ok := b.funcOf(v.m, v.n); ok {
			out = append(out, r)
		}
	}
	return out
}

// overrides returns the methods named name defined by the project's
// subclasses of c, at any depth.
func (b *builder) overrides(c *pyast.Class, name string) []FuncRef {
	lz := b.lazy
	lz.subclassesOnce.Do(func() {
		lz.subclasses = map[*pyast.Class][]*pyast.Class{}
		for _, m := range b.mods {
			for _, sub := range m.Classes {
				for _, base := range sub.Bases {
					for _, q := range m.Resolve(base) {
						if sym := b.lookup(q); sym.class != nil && sym.class != sub {
							lz.subclasses[sym.class] = append(lz.subclasses[sym.class], sub)
						}
					}
				}
			}
		}
	})
	var out []FuncRef
	seen := map[*pyast.Class]bool{c: true}
	queue := []*pyast.Class{c}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, sub := range lz.subclasses[k] {
			if seen[sub] {
				continue
			}
			seen[sub] = true
			queue = append(queue, sub)
			if f := sub.Methods[name]; f != nil {
				out = append(out, FuncRef{b.moduleOf[f], f})
			}
		}
	}
	return out
}

// builtinNames are Python builtins commonly called; they are never loop
// variables worth following.
var builtinNames = map[string]bool{
	"print": true, "len": true, "str": true, "int": true, "float": true, "bool": true, "list": true,
	"dict": true, "set": true, "tuple": true, "isinstance": true, "getattr": true, "setattr": true,
	"hasattr": true, "range": true, "enumerate": true, "zip": true, "sorted": true, "min": true,
	"max": true, "sum": true, "any": true, "all": true, "open": true, "repr": true, "type": true,
	"super": true, "iter": true, "next": true, "map": true, "filter": true, "abs": true, "round": true,
	"format": true, "id": true, "hash": true, "vars": true, "dir": true, "callable": true, "bytes": true,
	"ValueError": true, "TypeError": true, "RuntimeError": true, "KeyError": true, "Exception": true,
}

// memberValues resolves `for name, obj in inspect.getmembers(module)`, the
// loop of a loader that registers what a module holds: obj takes the
// module-level functions of that module that a project decorator marks (a
// loader filters members by the marker; undecorated helpers are not
// registered). The module is the argument when it names a project module,
// else (a module imported by name, importlib.import_module(PREFIX + name))
// every project module named by a string prefix ("pkg.prompts.") written
// in the loader's function.
func (b *builder) memberValues(m *pyast.Module, right, loop *pyast.Node) ([]valueAt, bool) {
	right = pyast.Unparen(right)
	if right == nil || right.Kind() != "call" || !resolvesTo(m, pyast.Callee(right), "inspect.getmembers") {
		return nil, false
	}
	pos, _ := m.Args(right)
	var mods []*pyast.Module
	if len(pos) > 0 {
		for _, q := range m.Resolve(pos[0]) {
			if sym := b.lookup(q); sym.module != nil && sym.fn == nil && sym.class == nil && len(sym.bindings) == 0 {
				mods = append(mods, sym.module)
			}
		}
	}
	if len(mods) == 0 {
		scope := m.Root
		if f := m.FuncAt(loop); f != nil {
			scope = f.Node
		}
		var prefixes []string
		pyast.Walk(scope, func(n *pyast.Node) bool {
			if n.Kind() == "string" {
				if t := strings.Trim(m.Text(n), "\"'rbuRBU"); strings.HasSuffix(t, ".") && len(t) > 1 {
					prefixes = append(prefixes, t)
				}
				return false
			}
			return true
		})
		for _, pm := range b.mods {
			base := pm.Name[strings.LastIndexByte(pm.Name, '.')+1:]
			for _, p := range prefixes {
				if b.module(p+base) == pm {
					mods = append(mods, pm)
					break
				}
			}
		}
	}
	var out []valueAt
	for _, pm := range mods {
		for _, f := range pm.Funcs {
			if f.Parent != nil || f.Class != nil || len(f.Decorators) == 0 {
				continue
			}
			for _, d := range f.Decorators {
				if _, ok := b.funcOf(pm, decoratorFunc(d)); ok {
					out = append(out, valueAt{pm, f.Node.ChildByFieldName("name")})
					break
				}
			}
		}
	}
	return out, true
}

func resolvesTo(m *pyast.Module, n *pyast.Node, qual string) bool {
	for _, q := range m.Resolve(n) {
		if q == qual {
			return true
		}
	}
	return false
}
