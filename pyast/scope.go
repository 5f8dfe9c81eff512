package pyast

import (
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// BindingKind says how a name got its meaning.
type BindingKind uint8

const (
	BindImport BindingKind = iota // import / from-import: Targets are the imported qualified names
	BindDef                       // def or class in this scope: Targets = [qualified name of the definition]
	BindAlias                     // name = dotted.expr: Targets = what the right side resolves to
	BindValue                     // name = call(...), or "with call() as name": Targets = [the variable's own qualified name], Types = the callee's names
	BindParam                     // a function parameter: Types = its resolved annotation
)

// Binding is one way a name is bound in a scope. A name can have several
// (try/except ImportError fallbacks, reassignments); resolution returns all.
//
// A module has a Binding for every parameter, def, import and assignment to
// a name, the largest part of its index: a Binding is 40 bytes, its name and
// its targets and types (one array) held by pointer and length, its value
// found from its node.
type Binding struct {
	name *byte   // the name's bytes: the end of its target, or in the module's Src (see TextView)
	Node *Node   // the statement or parameter that binds it
	ts   *string // the first of Targets, then Types
	nlen uint32  // len(name)
	n    uint32  // len(Targets) + len(Types)
	nt   uint32  // len(Targets)
	Kind BindingKind
}

// Name returns the name bound.
func (b *Binding) Name() string { return unsafe.String(b.name, b.nlen) }

// Targets returns what the name refers to: see BindingKind.
func (b *Binding) Targets() []string { return unsafe.Slice(b.ts, b.nt) }

// Types returns the qualified names of what produced the value: the
// callee of an assignment's call, a parameter's resolved annotation.
func (b *Binding) Types() []string { return unsafe.Slice(b.ts, b.n)[b.nt:] }

// set sets the name, targets and types of b.
func (b *Binding) set(name string, targets, types []string) {
	b.name, b.nlen = unsafe.StringData(name), uint32(len(name))
	ts := targets
	switch {
	case len(types) == 0:
	case len(targets) == 0:
		ts = types
	default:
		ts = append(append(make([]string, 0, len(targets)+len(types)), targets...), types...)
	}
	b.ts, b.n, b.nt = unsafe.SliceData(ts), uint32(len(ts)), uint32(len(targets))
}

// Value returns the right-hand side of an assignment (the value of "a = b =
// value"), the call of a with item ("with call() as name"), or nil.
func (b *Binding) Value() *Node {
	n := b.Node
	switch {
	case n == nil:
		return nil
	case assignmentKinds.has(n.symbol):
		return AssignedValue(n)
	case withItemKinds.has(n.symbol):
		if v := n.ChildByFieldName("value"); v != nil {
			return Unparen(v.NamedChild(0))
		}
	}
	return nil
}

// Unpacked returns the position of b's name in a tuple target (a, b =
// value: b is element 1 of value), or -1 when the binding takes the whole
// value. Starred names (a, *rest = value) are not bound.
func (m *Module) Unpacked(b *Binding) int {
	n := b.Node
	if n == nil || !assignmentKinds.has(n.symbol) {
		return -1
	}
	left := Unparen(n.ChildByFieldName("left"))
	if left == nil {
		return -1
	}
	switch left.Kind() {
	case "pattern_list", "tuple_pattern", "list_pattern":
	default:
		return -1
	}
	for i, c := range NamedChildren(left) {
		if c.Kind() == "identifier" && m.TextView(c) == b.Name() {
			return i
		}
	}
	return -1
}

// AssignedValue returns the right-hand side of an assignment: the value of
// "a = b = value", however many targets are chained; nil for an annotation
// alone ("x: int").
func AssignedValue(n *Node) *Node {
	right := Unparen(n.ChildByFieldName("right"))
	for right != nil && right.Kind() == "assignment" {
		right = Unparen(right.ChildByFieldName("right"))
	}
	return right
}

// Scope is a module, function or class body.
type Scope struct {
	Parent *Scope
	Qual   string    // qualified name of the module / function / class
	Func   *Function // nil for module and class scopes
	Class  *Class    // set for class body scopes

	// The first binding of each name, in the order the names were first
	// bound. Most scopes are functions with a few names, found by a linear
	// scan; a scope with more gets a hash table (a map per function scope was the
	// largest part of a module's index). Most names are bound once; the
	// bindings of a name bound more than once are in more, by its index in
	// names.
	names  []*Binding
	byName *nameTable
	more   map[int32][]*Binding
}

// scopeMapAt is the number of names past which a scope indexes them by a
// hash table.
const scopeMapAt = 8

// nameTable indexes a scope's names: open addressing with linear probing,
// each slot 1 + an index into Scope.names, or 0 for none; at most half the
// slots are used. About 10 bytes a name, where a map[string]int32 takes 50.
type nameTable struct {
	slots []int32 // len is a power of two
}

var nameSeed = maphash.MakeSeed()

// find returns the index of name in s.names, or -1.
func (s *Scope) find(name string) int {
	if t := s.byName; t != nil {
		mask := uint64(len(t.slots) - 1)
		for i := maphash.String(nameSeed, name) & mask; ; i = (i + 1) & mask {
			k := t.slots[i]
			if k == 0 {
				return -1
			}
			if s.names[k-1].Name() == name {
				return int(k - 1)
			}
		}
	}
	for i, b := range s.names {
		if b.Name() == name {
			return i
		}
	}
	return -1
}

// insert adds s.names[i], which is not in the table, to it.
func (t *nameTable) insert(s *Scope, i int) {
	mask := uint64(len(t.slots) - 1)
	j := maphash.String(nameSeed, s.names[i].Name()) & mask
	for t.slots[j] != 0 {
		j = (j + 1) & mask
	}
	t.slots[j] = int32(i + 1)
}

func (s *Scope) bind(b *Binding) {
	if i := s.find(b.Name()); i >= 0 {
		if s.more == nil {
			s.more = map[int32][]*Binding{}
		}
		bs := s.more[int32(i)]
		if bs == nil {
			bs = []*Binding{s.names[i]}
		}
		s.more[int32(i)] = append(bs, b)
		return
	}
	s.names = append(s.names, b)
	n := len(s.names)
	switch {
	case s.byName != nil && 2*n <= len(s.byName.slots):
		s.byName.insert(s, n-1)
	case n > scopeMapAt:
		size := 32
		for size < 2*n {
			size *= 2
		}
		s.byName = &nameTable{slots: make([]int32, size)}
		for i := range s.names {
			s.byName.insert(s, i)
		}
	}
}

// Local returns the bindings of name in this scope only.
func (s *Scope) Local(name string) []*Binding {
	i := s.find(name)
	if i < 0 {
		return nil
	}
	if bs := s.more[int32(i)]; bs != nil {
		return bs
	}
	return s.names[i : i+1 : i+1]
}

// Names returns every name bound in this scope, in the order they were
// first bound.
func (s *Scope) Names() []string {
	out := make([]string, 0, len(s.names))
	for _, b := range s.names {
		out = append(out, b.Name())
	}
	return out
}

// Lookup finds name in this scope or the nearest enclosing one that binds it.
// Class scopes are skipped for code inside methods, as Python does.
func (s *Scope) Lookup(name string) []*Binding {
	_, bs := s.LookupScope(name)
	return bs
}

// LookupScope is Lookup that also returns the scope that binds name (nil
// when none does).
func (s *Scope) LookupScope(name string) (*Scope, []*Binding) {
	for sc := s; sc != nil; sc = sc.Parent {
		if sc != s && sc.Func == nil && sc.Parent != nil {
			continue // an enclosing class body is not visible from a method
		}
		if bs := sc.Local(name); len(bs) > 0 {
			return sc, bs
		}
	}
	return nil, nil
}

// DottedName returns "a.b.c" for an identifier or attribute chain, or "".
func DottedName(m *Module, n *Node) string {
	n = Unparen(n)
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		return m.Text(n)
	case "attribute":
		obj := DottedName(m, n.ChildByFieldName("object"))
		if obj == "" {
			return ""
		}
		return obj + "." + m.Text(n.ChildByFieldName("attribute"))
	case "dotted_name":
		return strings.Join(strings.Fields(m.Text(n)), "")
	}
	return ""
}

// Resolve returns the qualified names an identifier or attribute chain can
// refer to, seen from the scope that contains n. Imported names resolve to the
// imported module path ("anyio.to_thread.run_sync"), names defined in the
// project to "module.name", and unbound names to themselves (builtins).
// It returns nil for expressions that are not names.
func (m *Module) Resolve(n *Node) []string {
	if n == nil {
		return nil
	}
	return m.ResolveIn(m.ScopeAt(n), n)
}

// ResolveIn is Resolve with the scope given.
func (m *Module) ResolveIn(s *Scope, n *Node) []string {
	return m.ResolveUnless(s, n, nil)
}

// ResolveUnless is ResolveIn, except that it returns nil when skip reports
// true for the expression's root: the identifier n, or the one its
// attribute chain starts from, with the scope that binds it and its
// bindings there (nil and none when no scope does). A caller that knows
// the names some roots lead to are of no use to it saves building them.
func (m *Module) ResolveUnless(s *Scope, n *Node, skip func(sc *Scope, name string, bs []*Binding) bool) []string {
	n = Unparen(n)
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier":
		bs, ok := m.root(s, n, skip)
		switch {
		case !ok:
			return nil
		case len(bs) == 0:
			return m.unbound(m.Text(n))
		case len(bs) == 1: // a binding's targets are distinct
			return append([]string(nil), bs[0].Targets()...)
		}
		return uniqueTargets(bs)
	case "attribute":
		// The chain's root is resolved, then each of its names extended
		// by the chain's attributes at once (one string each, not one
		// per attribute), as resolving object by object would give.
		var attrs [9]string // the attributes, the last first
		k := 0
		for n.Kind() == "attribute" {
			if k > 8 {
				return nil
			}
			attrs[k] = m.TextView(n.ChildByFieldName("attribute"))
			k++
			n = Unparen(n.ChildByFieldName("object"))
			if n == nil {
				return nil
			}
		}
		if k > 8 || n.Kind() != "identifier" {
			return nil
		}
		bs, ok := m.root(s, n, skip)
		var bases []string
		switch {
		case !ok:
			return nil
		case len(bs) == 0:
			bases = m.unbound(m.TextView(n))
		case len(bs) == 1:
			bases = bs[0].Targets()
		default:
			bases = uniqueTargets(bs)
		}
		if len(bases) == 0 {
			return nil
		}
		tail := 0
		for _, a := range attrs[:k] {
			tail += 1 + len(a)
		}
		out := make([]string, len(bases)) // distinct bases, the same tail: distinct
		var sb strings.Builder
		for i, base := range bases {
			sb.Reset()
			sb.Grow(len(base) + tail)
			sb.WriteString(base)
			for j := k - 1; j >= 0; j-- {
				sb.WriteByte('.')
				sb.WriteString(attrs[j])
			}
			out[i] = sb.String()
		}
		return out
	}
	return nil
}

// unbound returns what a name no scope binds can refer to: a builtin, or
// in a module with star imports (from X import *) the module's own
// module.name too, which a lookup across modules follows into the X that
// exports it (Stars).
func (m *Module) unbound(name string) []string {
	if len(m.Stars) == 0 || m.Name == "" {
		return []string{name}
	}
	return []string{m.Name + "." + name, name}
}

// root looks the identifier n up from s: its bindings, and false when skip
// says the names it leads to are of no use.
func (m *Module) root(s *Scope, n *Node, skip func(*Scope, string, []*Binding) bool) ([]*Binding, bool) {
	name := m.TextView(n)
	sc, bs := s.LookupScope(name)
	if skip != nil && skip(sc, name, bs) {
		return nil, false
	}
	return bs, true
}

// uniqueTargets is every target of bs, each once, in order.
func uniqueTargets(bs []*Binding) []string {
	var out []string
	for _, b := range bs {
		out = appendUnique(out, b.Targets()...)
	}
	return out
}

// TypesOf returns the qualified names of what produced the value of an
// identifier or attribute chain: the constructor or factory called in its
// assignment, or its parameter annotation. Attribute chains on self resolve
// through the class's attributes.
func (m *Module) TypesOf(n *Node) []string {
	var out []string
	for _, b := range m.BindingsOf(n) {
		out = appendUnique(out, b.Types()...)
	}
	return out
}

// BindingsOf returns the bindings of a name, or of an attribute of self
// (the first parameter of a method) that the class's methods assign; nil
// for other expressions.
func (m *Module) BindingsOf(n *Node) []*Binding {
	n = Unparen(n)
	if n == nil {
		return nil
	}
	s := m.ScopeAt(n)
	switch n.Kind() {
	case "identifier":
		return s.Lookup(m.TextView(n))
	case "attribute":
		obj := Unparen(n.ChildByFieldName("object"))
		if obj.Kind() == "identifier" {
			if cls := m.selfClass(s, m.Text(obj)); cls != nil {
				return cls.Attrs[m.Text(n.ChildByFieldName("attribute"))]
			}
		}
	}
	return nil
}

// selfClass returns the class whose instance name refers to when name is the
// first parameter of a method (self / cls), else nil.
func (m *Module) selfClass(s *Scope, name string) *Class {
	for sc := s; sc != nil; sc = sc.Parent {
		f := sc.Func
		if f == nil {
			continue
		}
		if f.Class != nil && len(f.Params) > 0 && f.Params[0].Name == name {
			return f.Class
		}
	}
	return nil
}

func appendUnique(dst []string, vals ...string) []string {
outer:
	for _, v := range vals {
		for _, d := range dst {
			if d == v {
				continue outer
			}
		}
		dst = append(dst, v)
	}
	return dst
}

// imported indexes a module's import bindings by what they import.
type imported struct {
	once sync.Once
	as   map[string][]string
}

// ImportedAs returns the names, sorted, that an import statement of the
// module, in any of its scopes, binds to exactly the qualified name q
// ("import a.b as x", "from a import b": x and b for a.b). A question asked
// once a finding (which name reaches q here) must not cost a pass over the
// module's names each time: the index is built once, on first use, and is
// safe for concurrent use.
func (m *Module) ImportedAs(q string) []string {
	m.imports.once.Do(func() {
		m.imports.as = map[string][]string{}
		add := func(s *Scope) {
			if s == nil {
				return
			}
			for i, first := range s.names {
				bs := s.more[int32(i)]
				if bs == nil {
					bs = []*Binding{first}
				}
				for _, b := range bs {
					if b.Kind == BindImport && len(b.Targets()) == 1 {
						t := b.Targets()[0]
						if !slices.Contains(m.imports.as[t], b.Name()) {
							m.imports.as[t] = append(m.imports.as[t], b.Name())
						}
					}
				}
			}
		}
		add(m.Scope)
		for _, f := range m.Funcs {
			add(f.Scope)
		}
		for _, c := range m.Classes {
			add(c.Scope)
		}
		for _, names := range m.imports.as {
			slices.Sort(names)
		}
	})
	return m.imports.as[q]
}
