package values

import (
	"slices"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// attrOfSet returns the values of attribute name of each value.
func (e *Engine) attrOfSet(vals Set, name string, ev *env) Set {
	var out Set
	for _, v := range vals {
		out = out.union(e.attrOf(v, name))
	}
	return out
}

// attrOf returns the values of v.name.
func (e *Engine) attrOf(v *Value, name string) Set {
	if s, ok := dunderName(v, name); ok {
		if v.Kind == Function && wrapsDecorated(v) {
			// @functools.wraps(fn) copies fn's names onto the wrapper
			return Set{unknown("the name functools.wraps copies")}
		}
		// and what the project assigns to it (fn.__name__ = ...)
		return Set{&Value{Kind: Str, Text: s}}.union(e.stored(v, name))
	}
	switch v.Kind {
	case Module:
		return e.moduleAttr(v.Mod, name)
	case Class:
		return e.classAttr(v, name, v, 0)
	case Instance:
		if out, ok := e.enumAttr(v, name); ok {
			return out
		}
		return e.classAttr(&Value{Kind: Class, Mod: v.Mod, Class: v.Class}, name, v, 0)
	case Super:
		return e.classAttr(&Value{Kind: Class, Mod: e.clsMod[v.Class], Class: v.Class}, name, v.Self, 1)
	case External:
		return Set{&Value{Kind: External, Name: v.Name + "." + name}}
	case ExtResult:
		return Set{&Value{Kind: External, Name: v.Name + "()." + name}}
	case Unknown:
		return Set{v}
	case Const:
		if v.Text == "None" {
			return nil // raises AttributeError: no value
		}
	}
	return Set{unknown("attribute " + name + " of " + v.String())}
}

// dunderName returns __name__ or __module__ of a project
// module, class or function (def), as Python sets them.
func dunderName(v *Value, name string) (string, bool) {
	switch {
	case v.Kind == Module && name == "__name__":
		return v.Mod.Name, v.Mod.Name != ""
	case v.Kind == Function && v.Func != nil && v.Lambda == nil:
		switch name {
		case "__name__":
			return v.Func.Name, true
		case "__module__":
			return v.Mod.Name, v.Mod.Name != ""
		}
	case v.Kind == Class:
		switch name {
		case "__name__":
			return v.Class.Name, true
		case "__module__":
			return v.Mod.Name, v.Mod.Name != ""
		}
	}
	return "", false
}

// wrapsDecorated reports whether function value v is decorated with
// functools.wraps(...) (or wraps(...)), which gives it another's names.
func wrapsDecorated(v *Value) bool {
	for _, d := range v.Func.Decorators {
		if d.Kind() == "call" {
			if t := v.Mod.TextView(pyast.Callee(d)); t == "wraps" || strings.HasSuffix(t, ".wraps") {
				return true
			}
		}
	}
	return false
}

// moduleAttr returns module m's name: its module-level bindings, a
// submodule, a name its star imports bring in, or what the project assigns
// to it from outside (mod.name = v, setattr(mod, "name", v)).
func (e *Engine) moduleAttr(m *pyast.Module, name string) Set {
	return e.memoised(memoKey{kind: kModAttr, p: m, s: name}, func() Set {
		var out Set
		bs, extra := finalBindings(m, m.Scope.Local(name), e.extraBindings(m, m.Scope)[name], ^uint(0))
		for _, b := range bs {
			out = out.union(e.bindingValues(m, b, nil))
		}
		for _, x := range extra {
			out = out.union(e.extraValues(m, m.Scope, x, name, nil))
		}
		if len(out) == 0 {
			if sub := e.module(m.Name + "." + name); sub != nil && m.IsPackage() {
				return Set{&Value{Kind: Module, Mod: sub}}
			}
			for i := len(m.Stars) - 1; i >= 0; i-- {
				if src := e.module(m.Stars[i]); src != nil && e.starExports(src, name) {
					return e.resolveQual(m.Stars[i]+"."+name, nil)
				}
			}
		}
		out = out.union(e.stored(&Value{Kind: Module, Mod: m}, name))
		if len(out) == 0 {
			if sub := e.module(m.Name + "." + name); sub != nil {
				return Set{&Value{Kind: Module, Mod: sub}}
			}
			if e.lazy.namespaces[m.Name] == m {
				// A namespace package's other portions can be anywhere on
				// the path (an installed package of that name): what the
				// project does not hold is a library's.
				return Set{&Value{Kind: External, Name: m.Name + "." + name}}
			}
			if len(m.Scope.Local("__getattr__")) > 0 { // PEP 562: the module computes the rest
				return Set{unknown("module " + m.Name + " computes " + name + " (__getattr__)")}
			}
			return Set{missing("module " + m.Name + " has no " + name)}
		}
		return out
	})
}

// mro returns the method resolution order of class c: C3 linearisation of
// the project classes among its bases (an external base ends the part of
// the order the project can tell; ext is its name).
func (e *Engine) mro(c *pyast.Class) (order []*pyast.Class, ext []string) {
	var visit func(c *pyast.Class, depth int) ([]*pyast.Class, []string)
	visit = func(c *pyast.Class, depth int) ([]*pyast.Class, []string) {
		if depth > 16 {
			return []*pyast.Class{c}, nil
		}
		m := e.clsMod[c]
		var seqs [][]*pyast.Class
		var exts []string
		var direct []*pyast.Class
		for _, b := range c.Bases {
			for _, bv := range e.eval(m, b, nil) {
				switch bv.Kind {
				case Class:
					if bv.Class == c {
						continue
					}
					o, x := visit(bv.Class, depth+1)
					seqs = append(seqs, o)
					exts = append(exts, x...)
					direct = append(direct, bv.Class)
				case External:
					exts = append(exts, bv.Name)
				}
			}
		}
		seqs = append(seqs, direct)
		return append([]*pyast.Class{c}, c3merge(seqs)...), exts
	}
	return visit(c, 0)
}

// c3merge merges linearisations as C3 does; where no head is good (an
// inconsistent hierarchy, which Python rejects), it takes the first head.
func c3merge(seqs [][]*pyast.Class) []*pyast.Class {
	var out []*pyast.Class
	for {
		var nonEmpty [][]*pyast.Class
		for _, s := range seqs {
			if len(s) > 0 {
				nonEmpty = append(nonEmpty, s)
			}
		}
		if len(nonEmpty) == 0 {
			return out
		}
		seqs = nonEmpty
		var pick *pyast.Class
		for _, s := range seqs {
			h := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[1:] {
					if x == h {
						inTail = true
					}
				}
			}
			if !inTail {
				pick = h
				break
			}
		}
		if pick == nil {
			pick = seqs[0][0]
		}
		out = append(out, pick)
		for i, s := range seqs {
			if s[0] == pick {
				seqs[i] = s[1:]
			}
		}
	}
}

// classMethod finds method name through the MRO of class value c.
func (e *Engine) classMethod(c *Value, name string) (*pyast.Function, *pyast.Module) {
	order, _ := e.mro(c.Class)
	for _, k := range order {
		if f := k.Methods[name]; f != nil {
			return f, e.modOf[f]
		}
	}
	return nil, nil
}

// classAttr returns attribute name of class c read through self (c itself,
// an instance, or a Super's receiver), from position skip of c's MRO on:
// methods (bound to self unless static; a classmethod bound to the class;
// a property's return values), class-body bindings, the attributes methods
// assign on self (self.x = v) or the project assigns from outside, and
// annotated fields (x: T, dataclass fields).
func (e *Engine) classAttr(c *Value, name string, self *Value, skip int) Set {
	key := memoKey{kind: kAttr, p: c.Class, s: name + "\x00" + self.Key() + "\x00" + itoa(skip)}
	return e.memoised(key, func() Set {
		order, ext := e.mro(c.Class)
		if skip > len(order) {
			skip = len(order)
		}
		var out Set
		for _, k := range order[skip:] {
			km := e.clsMod[k]
			if f := k.Methods[name]; f != nil {
				out = out.union(e.methodValue(km, f, k, self))
				return out
			}
			if mv := e.enumMemberValue(k, name); mv != nil {
				return out.add(mv)
			}
			var found Set
			for _, b := range k.Scope.Local(name) {
				found = found.union(e.bindingValues(km, b, nil))
			}
			if self.Kind == Instance {
				for _, b := range k.Attrs[name] {
					if n := b.Node; n != nil && n.Kind() == "assignment" {
						if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "attribute" {
							found = found.union(e.eval(km, pyast.AssignedValue(n), nil))
							if ann := n.ChildByFieldName("type"); ann != nil {
								found = found.union(e.annotationValues(km, km.ScopeAt(n), ann))
							}
						}
					}
				}
				for _, x := range e.extraBindings(km, k.Scope)[name] {
					found = found.union(e.extraValues(km, k.Scope, x, name, nil))
				}
				found = found.union(e.stored(&Value{Kind: Instance, Mod: km, Class: k}, name))
				found = found.union(e.fieldArguments(km, k, name))
			}
			if len(found) > 0 {
				return out.union(found)
			}
		}
		for _, x := range ext {
			return Set{&Value{Kind: External, Name: x + "." + name}}
		}
		return Set{missing("class " + c.Class.Qual + " has no attribute " + name)}
	})
}

// methodValue is method f of class k read through self: a bound method, a
// function for a staticmethod, a method bound to the class for a
// classmethod, what a property returns.
func (e *Engine) methodValue(km *pyast.Module, f *pyast.Function, k *pyast.Class, self *Value) Set {
	for _, d := range f.Decorators {
		switch km.TextView(d) {
		case "staticmethod":
			return Set{&Value{Kind: Function, Mod: km, Func: f}}
		case "classmethod":
			cls := self
			if self.Kind == Instance {
				cls = &Value{Kind: Class, Mod: self.Mod, Class: self.Class}
			}
			return Set{&Value{Kind: Method, Mod: km, Func: f, Class: k, Self: cls}}
		case "property", "functools.cached_property", "cached_property":
			if self.Kind == Instance {
				return e.returns(km, f, nil)
			}
			return Set{&Value{Kind: External, Name: "property"}}
		}
	}
	if self.Kind == Class {
		return Set{&Value{Kind: Function, Mod: km, Func: f}}
	}
	return Set{&Value{Kind: Method, Mod: km, Func: f, Class: k, Self: self}}
}

// store is an assignment to an attribute of an object other than through a
// method's self binding: obj.attr = v anywhere, setattr(obj, name, v).
type store struct {
	m        *pyast.Module
	obj, val *pyast.Node
	name     *pyast.Node // setattr's name argument; nil for obj.attr = v
}

// stored returns what the project stores in attribute name of objects that
// can be v (a module or an instance of a class).
func (e *Engine) stored(v *Value, name string) Set {
	if e.lazy.stores == nil {
		e.lazy.stores = map[string][]store{}
		for _, m := range e.mods {
			if e.aside(m) {
				continue
			}
			for n := range m.Nodes("assignment") {
				l := pyast.Unparen(n.ChildByFieldName("left"))
				if l == nil || l.Kind() != "attribute" || n.ChildByFieldName("right") == nil {
					continue
				}
				a := m.TextView(l.ChildByFieldName("attribute"))
				e.lazy.stores[a] = append(e.lazy.stores[a], store{m: m, obj: l.ChildByFieldName("object"), val: pyast.AssignedValue(n)})
			}
			for call := range m.Nodes("call") {
				if c := pyast.Unparen(pyast.Callee(call)); c != nil && c.Kind() == "identifier" && m.TextView(c) == "setattr" {
					if pos, _ := m.Args(call); len(pos) == 3 {
						e.lazy.stores[""] = append(e.lazy.stores[""], store{m: m, obj: pos[0], val: pos[2], name: pos[1]})
					}
				}
			}
		}
	}
	key := v.Key()
	var out Set
	for _, list := range [][]store{e.lazy.stores[name], e.lazy.stores[""]} {
		for _, st := range list {
			if st.name != nil {
				ok := false
				for _, nv := range e.eval(st.m, st.name, nil) {
					if nv.Kind == Unknown || nv.Kind == Str && nv.Text == name {
						ok = true
					}
				}
				if !ok {
					continue
				}
			}
			for _, o := range e.eval(st.m, st.obj, nil) {
				if o.Key() == key {
					out = out.union(e.eval(st.m, st.val, nil))
					break
				}
			}
		}
	}
	return out
}

// fieldArguments returns the values the project's constructor calls pass
// for field name of dataclass k (by keyword, or by position in the order
// the class body annotates its fields).
func (e *Engine) fieldArguments(km *pyast.Module, k *pyast.Class, name string) Set {
	if !e.fieldsFromConstructor(km, k) {
		return nil
	}
	idx := slices.Index(annotatedNames(km, k), name)
	if idx < 0 {
		return nil
	}
	var out Set
	// The class's own name, and cls: a classmethod of it or of a base
	// builds it as cls(...) (Tool.create_from_dict(d) -> cls(**attrs)).
	own := e.sitesNamed(k.Name)
	sites := append(own[:len(own):len(own)], e.sitesNamed("cls")...)
	for _, s := range sites {
		if s.def != nil || !e.flowsInto(s.m, km) {
			continue
		}
		ok := false
		for _, v := range e.eval(s.m, pyast.Callee(s.call), nil) {
			if v.Kind == Class && v.Class == k {
				ok = true
			}
		}
		if !ok {
			continue
		}
		pos, kw := s.m.Args(s.call)
		if a := kw[name]; a != nil {
			out = out.union(e.eval(s.m, a, nil))
		} else if idx < len(pos) {
			out = out.union(e.eval(s.m, pos[idx], nil))
		} else {
			out = out.union(e.splatField(s.m, s.call, name))
		}
	}
	return out
}

// fieldsFromConstructor reports whether the constructor of class k takes
// the fields its body annotates as arguments: a dataclass, an attrs class
// (@define, @frozen, @attr.s...), a typing.NamedTuple or a pydantic model.
func (e *Engine) fieldsFromConstructor(km *pyast.Module, k *pyast.Class) bool {
	for _, d := range k.Decorators {
		if d.Kind() == "call" {
			d = pyast.Callee(d)
		}
		t := km.TextView(d)
		if i := strings.LastIndexByte(t, '.'); i >= 0 {
			t = t[i+1:]
		}
		switch t {
		case "dataclass", "define", "frozen", "mutable", "s", "attrs":
			return true
		}
	}
	_, ext := e.mro(k)
	for _, x := range ext {
		switch x {
		case "typing.NamedTuple", "typing_extensions.NamedTuple", "pydantic.BaseModel", "pydantic.main.BaseModel":
			return true
		}
	}
	return false
}

// annotatedNames returns the names class k's body annotates (x: T, with
// or without a value), in order: a dataclass's fields, a NamedTuple's, a
// pydantic model's.
func annotatedNames(km *pyast.Module, k *pyast.Class) []string {
	body := k.Node.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	var out []string
	for _, st := range pyast.NamedChildren(body) {
		if st.Kind() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		a := st.NamedChild(0)
		if a.Kind() != "assignment" || a.ChildByFieldName("type") == nil {
			continue
		}
		if l := a.ChildByFieldName("left"); l != nil && l.Kind() == "identifier" {
			out = append(out, km.TextView(l))
		}
	}
	return out
}

// splatField returns what the **mapping arguments of call pass for keyword
// name: the entries of each dict the mapping can be whose key can be name.
func (e *Engine) splatField(m *pyast.Module, call *pyast.Node, name string) Set {
	args := call.ChildByFieldName("arguments")
	if args == nil {
		return nil
	}
	var out Set
	key := Set{&Value{Kind: Str, Text: name}}
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() != "dictionary_splat" || a.NamedChildCount() == 0 {
			continue
		}
		for _, d := range e.eval(m, a.NamedChild(0), nil) {
			if d.Kind == Container && d.Seq == "dict" {
				out = out.union(e.lookupKey(d, key))
			} else {
				out = out.add(unknown("a ** argument that is no dict the analysis knows"))
			}
		}
	}
	return out
}

// subclasses returns the project's subclasses of c, at any depth, in
// module and document order.
func (e *Engine) subclasses(c *pyast.Class) []*pyast.Class {
	if e.lazy.subsBuilding {
		e.partial = true // an answer read from a partial index is not kept
		return nil
	}
	if e.lazy.subs == nil {
		e.lazy.subsBuilding = true
		partial := e.partial
		subs := map[*pyast.Class][]*pyast.Class{}
		for _, m := range e.mods {
			for _, k := range m.Classes {
				for _, b := range k.Bases {
					e.steps, e.truncated = 0, false // each base has a budget of its own
					for _, bv := range e.eval(m, b, nil) {
						if bv.Kind == Class && bv.Class != k {
							subs[bv.Class] = append(subs[bv.Class], k)
						}
					}
				}
			}
		}
		e.lazy.subs, e.lazy.subsBuilding = subs, false
		e.steps, e.truncated, e.partial = 0, false, partial
		e.forgetPartial()
	}
	if c == nil {
		return nil
	}
	var out []*pyast.Class
	seen := map[*pyast.Class]bool{c: true}
	queue := []*pyast.Class{c}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, s := range e.lazy.subs[k] {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
				queue = append(queue, s)
			}
		}
	}
	return out
}
