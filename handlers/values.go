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

// valueAt is an expression with the module it is in; elem > 0 stands for
// element elem-1 of the tuple it evaluates to (a, b = f(): b is element 1
// of f()'s value).
type valueAt struct {
	m    *pyast.Module
	n    *pyast.Node
	elem int
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
					vals = append(vals, valueAt{sym.module, v, sym.module.Unpacked(bd) + 1})
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
				vals = append(vals, valueAt{m, v, m.Unpacked(bd) + 1})
			}
		}
		return key, vals
	}
	return "", nil
}

// maxElemsDepth bounds the steps elems follows (a variable to its value, a
// call to what the function returns, a tuple to its item, a comprehension
// to what it iterates): tools built by one function, returned in a tuple by
// another and filtered by comprehensions take a dozen.
const maxElemsDepth = 16

// elems returns the expressions a collection expression can hold: the items
// of a literal (the values of a dict), of a variable bound to one and of
// what the project adds to it, through list(x), x.values() and the like.
func (b *builder) elems(m *pyast.Module, expr *pyast.Node, depth int) []valueAt {
	return b.elemsIn(m, expr, depth, map[valueAt]bool{})
}

// elemsIn is elems; seen holds the variables, calls and tuple items
// expanded so far in this expansion, each expanded once: what they hold is
// in the result already (and a value built from itself, x = x + [f], ends).
func (b *builder) elemsIn(m *pyast.Module, expr *pyast.Node, depth int, seen map[valueAt]bool) []valueAt {
	expr = pyast.Unparen(expr)
	if expr == nil || depth > maxElemsDepth {
		return nil
	}
	switch expr.Kind() {
	case "call", "identifier", "attribute":
		k := valueAt{m: m, n: expr}
		if seen[k] {
			return nil
		}
		seen[k] = true
	}
	switch expr.Kind() {
	case "list", "tuple", "set", "expression_list":
		var out []valueAt
		for _, el := range pyast.NamedChildren(expr) {
			switch el.Kind() {
			case "comment":
			case "list_splat":
				if el.NamedChildCount() > 0 {
					out = append(out, b.elemsIn(m, el.NamedChild(0), depth+1, seen)...)
				}
			default:
				out = append(out, valueAt{m: m, n: el})
			}
		}
		return out
	case "dictionary":
		var out []valueAt
		for _, p := range pyast.NamedChildren(expr) {
			switch p.Kind() {
			case "pair":
				out = append(out, valueAt{m: m, n: p.ChildByFieldName("value")})
			case "dictionary_splat":
				if p.NamedChildCount() > 0 {
					out = append(out, b.elemsIn(m, p.NamedChild(0), depth+1, seen)...)
				}
			}
		}
		return out
	case "call":
		callee := pyast.Unparen(pyast.Callee(expr))
		pos, _ := m.Args(expr)
		if obj, attr := lastAttr(m, callee); obj != nil && (attr == "values" || attr == "copy") {
			return b.elemsIn(m, obj, depth+1, seen)
		}
		for _, q := range m.Resolve(callee) {
			switch q {
			case "list", "tuple", "set", "sorted", "reversed", "frozenset":
				if len(pos) > 0 {
					return b.elemsIn(m, pos[0], depth+1, seen)
				}
			}
		}
		// A project function's call: what it returns (tools = get_tools()).
		var out []valueAt
		for _, r := range b.returnValues(m, expr, depth) {
			out = append(out, b.elemsIn(r.m, r.n, depth+1, seen)...)
		}
		return out
	case "binary_operator": // A + B
		return append(b.elemsIn(m, expr.ChildByFieldName("left"), depth+1, seen), b.elemsIn(m, expr.ChildByFieldName("right"), depth+1, seen)...)
	case "list_comprehension", "set_comprehension", "generator_expression":
		return b.comprehensionElems(m, expr, expr.ChildByFieldName("body"), depth, seen)
	case "identifier", "attribute":
		key, vals := b.collectionKey(m, expr)
		if key == "" {
			return nil
		}
		var out []valueAt
		for _, v := range vals {
			out = append(out, b.elemsOf(v, depth+1, seen)...)
		}
		return append(out, b.additions()[key]...)
	}
	return nil
}

// elemsOf is elems of a value, or of the element of a tuple it stands for.
func (b *builder) elemsOf(v valueAt, depth int, seen map[valueAt]bool) []valueAt {
	if v.elem == 0 {
		return b.elemsIn(v.m, v.n, depth, seen)
	}
	if seen[v] {
		return nil
	}
	seen[v] = true
	var out []valueAt
	for _, it := range b.tupleItems(v.m, v.n, v.elem-1, depth, seen) {
		out = append(out, b.elemsIn(it.m, it.n, depth+1, seen)...)
	}
	return out
}

// tupleItems returns the expressions at position i of the tuples expr can
// evaluate to: a tuple literal's item, or that of what a project function
// returns (final, names = prepare_tools()).
func (b *builder) tupleItems(m *pyast.Module, expr *pyast.Node, i, depth int, seen map[valueAt]bool) []valueAt {
	expr = pyast.Unparen(expr)
	if expr == nil || depth > maxElemsDepth {
		return nil
	}
	switch expr.Kind() {
	case "tuple", "expression_list", "list":
		var items []*pyast.Node
		for _, el := range pyast.NamedChildren(expr) {
			if el.Kind() != "comment" {
				items = append(items, el)
			}
		}
		if i < len(items) && items[i].Kind() != "list_splat" {
			return []valueAt{{m: m, n: items[i]}}
		}
	case "call":
		if k := (valueAt{m: m, n: expr, elem: -1 - i}); !seen[k] {
			seen[k] = true
			var out []valueAt
			for _, r := range b.returnValues(m, expr, depth) {
				out = append(out, b.tupleItems(r.m, r.n, i, depth+1, seen)...)
			}
			return out
		}
	}
	return nil
}

// returnValues returns the expressions a call of a project function
// returns (its return statements, not those of functions nested in it).
func (b *builder) returnValues(m *pyast.Module, call *pyast.Node, depth int) []valueAt {
	if depth > maxElemsDepth {
		return nil
	}
	var out []valueAt
	for _, r := range b.engineOf[call] {
		for _, v := range pyast.Returns(r.Func) {
			out = append(out, valueAt{m: r.Module, n: v})
		}
	}
	return out
}

// comprehensionElems returns what the body of a comprehension can be, for
// each element: a variable of its for clauses stands for the elements of
// what that clause iterates ([t for t in tools if ok(t)]); each branch of a
// conditional counts ([wrap(t) if c else t for t in tools]); any other
// expression is itself an element (wrap(t), which a registration resolves
// through the clause: loopValues).
func (b *builder) comprehensionElems(m *pyast.Module, comp, body *pyast.Node, depth int, seen map[valueAt]bool) []valueAt {
	body = pyast.Unparen(body)
	if body == nil || depth > maxElemsDepth {
		return nil
	}
	if body.Kind() == "conditional_expression" {
		var out []valueAt
		for i, c := range pyast.NamedChildren(body) {
			if i != 1 { // not the condition
				out = append(out, b.comprehensionElems(m, comp, c, depth+1, seen)...)
			}
		}
		return out
	}
	if body.Kind() == "identifier" {
		if iter := comprehensionIterable(m, comp, m.TextView(body)); iter != nil {
			return b.elemsIn(m, iter, depth+1, seen)
		}
	}
	return []valueAt{{m: m, n: body}}
}

// comprehensionIterable returns what the for clause of comprehension comp
// that binds name (a plain variable) iterates, or nil.
func comprehensionIterable(m *pyast.Module, comp *pyast.Node, name string) *pyast.Node {
	for _, c := range pyast.NamedChildren(comp) {
		if c.Kind() != "for_in_clause" {
			continue
		}
		if left := pyast.Unparen(c.ChildByFieldName("left")); left != nil && left.Kind() == "identifier" && m.TextView(left) == name {
			return c.ChildByFieldName("right")
		}
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
					add(key, valueAt{m: m, n: pos[0]})
				}
			case "insert", "setdefault":
				if len(pos) == 2 {
					key, _ := b.collectionKey(m, obj)
					add(key, valueAt{m: m, n: pos[1]})
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
					add(key, valueAt{m: m, n: v})
				}
			}
		}
		for n := range m.Nodes("assignment") {
			left, right := pyast.Unparen(n.ChildByFieldName("left")), n.ChildByFieldName("right")
			if left == nil || right == nil || left.Kind() != "subscript" {
				continue
			}
			key, _ := b.collectionKey(m, left.ChildByFieldName("value"))
			add(key, valueAt{m: m, n: right})
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
	return []valueAt{{m: m, n: expr}}
}

// loopValues resolves a for-loop variable (for fn in TOOLS, for name, fn in
// TOOLS.items(), for name, fn in [("a", a)]) to the expressions it takes.
func (b *builder) loopValues(m *pyast.Module, id *pyast.Node) []valueAt {
	name := m.Text(id)
	// A comprehension's variable ([wrap(t) for t in tools]).
	for c := id.Parent(); c != nil && !pyast.IsFunctionBoundary(c); c = c.Parent() {
		switch c.Kind() {
		case "list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
			if iter := comprehensionIterable(m, c, name); iter != nil {
				return b.elems(m, iter, 0)
			}
		}
	}
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
				out = append(out, valueAt{m: el.m, n: items[idx]})
			}
		}
		return out
	}
	return nil
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
				if len(b.decoratorRuns(pm, d)) > 0 {
					out = append(out, valueAt{m: pm, n: f.Node.ChildByFieldName("name")})
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
