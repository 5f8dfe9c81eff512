package values

import (
	"strconv"

	"github.com/mcplint/mcplint/pyast"
)

// Containers are abstracted by the place they are built (a literal, a
// comprehension, a zip or enumerate call): every list built by one literal
// is one value, whose elements are what the literal holds plus what the
// project adds to it anywhere (append, extend, add, insert, update,
// setdefault, item assignment) on an expression that evaluates to it. A
// dict's elements are its entries, each a (key, value) tuple.

// mutating are the methods that add to a container, with the position of
// the argument they add.
var mutating = map[string]bool{"append": true, "add": true, "appendleft": true, "insert": true,
	"extend": true, "update": true, "setdefault": true}

// mutation is a call that adds to a container, or an item assignment.
type mutation struct {
	m    *pyast.Module
	n    *pyast.Node // the call, or the assignment
	obj  *pyast.Node
	kind string // the method, or "[]=" for an item assignment
}

// mutations lists the project's container mutations (once).
func (e *Engine) mutations() []mutation {
	if e.lazy.mutList != nil {
		return e.lazy.mutList
	}
	out := []mutation{}
	for _, m := range e.mods {
		if e.aside(m) {
			continue
		}
		for call := range m.Nodes("call") {
			callee := pyast.Unparen(pyast.Callee(call))
			if callee == nil || callee.Kind() != "attribute" {
				continue
			}
			if name := m.TextView(callee.ChildByFieldName("attribute")); mutating[name] {
				out = append(out, mutation{m, call, callee.ChildByFieldName("object"), name})
			}
		}
		for n := range m.Nodes("assignment") {
			if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "subscript" && n.ChildByFieldName("right") != nil {
				out = append(out, mutation{m, n, l.ChildByFieldName("value"), "[]="})
			}
		}
	}
	e.lazy.mutList = out
	return out
}

// elements returns what container value v holds: its elements, or for a
// dict its entries as (key, value) tuples.
func (e *Engine) elements(v *Value) Set {
	if v.Site == nil {
		var out Set
		for _, it := range v.Items {
			out = out.union(it)
		}
		return out
	}
	return e.memoised(memoKey{kind: kElems, s: v.withView(Whole).Key()}, func() Set {
		m, n := v.Mod, v.Site
		var out Set
		switch n.Kind() {
		case "list", "tuple", "set", "expression_list":
			for _, c := range pyast.NamedChildren(n) {
				switch c.Kind() {
				case "comment":
				case "list_splat":
					out = out.union(e.iterate(e.eval(m, c.NamedChild(0), nil)))
				default:
					out = out.union(e.eval(m, c, nil))
				}
			}
		case "dictionary":
			for _, c := range pyast.NamedChildren(n) {
				switch c.Kind() {
				case "pair":
					out = out.add(pair(e.eval(m, c.ChildByFieldName("key"), nil), e.eval(m, c.ChildByFieldName("value"), nil)))
				case "dictionary_splat":
					for _, d := range e.eval(m, c.NamedChild(0), nil) {
						if d.Kind == Container && d.Seq == "dict" {
							out = out.union(e.elements(d))
						}
					}
				}
			}
		case "list_comprehension", "set_comprehension", "generator_expression":
			out = e.eval(m, n.ChildByFieldName("body"), nil)
		case "dictionary_comprehension":
			if b := n.ChildByFieldName("body"); b != nil && b.Kind() == "pair" {
				out = out.add(pair(e.eval(m, b.ChildByFieldName("key"), nil), e.eval(m, b.ChildByFieldName("value"), nil)))
			}
		case "call":
			return e.builtElements(v)
		}
		return out.union(e.additions(v))
	})
}

// pair is a (key, value) entry of a dict.
func pair(k, v Set) *Value { return &Value{Kind: Container, Seq: "tuple", Items: []Set{k, v}} }

// builtElements are the elements of a container a builtin call builds:
// zip(a, b) yields (a item, b item), enumerate(x) (int, x item), dict(...)
// the entries of its keywords and of the mapping it copies.
func (e *Engine) builtElements(v *Value) Set {
	m, call := v.Mod, v.Site
	pos, kw := m.Args(call)
	switch v.Seq {
	case "zip":
		items := make([]Set, len(pos))
		for i, a := range pos {
			items[i] = e.iterate(e.eval(m, a, nil))
		}
		return Set{&Value{Kind: Container, Seq: "tuple", Items: items}}
	case "enumerate":
		if len(pos) == 0 {
			return nil
		}
		return Set{&Value{Kind: Container, Seq: "tuple", Items: []Set{{&Value{Kind: Const, Text: "int"}}, e.iterate(e.eval(m, pos[0], nil))}}}
	case "dict":
		var out Set
		for _, a := range pos {
			for _, d := range e.eval(m, a, nil) {
				if d.Kind == Container && d.Seq == "dict" && d.View == Whole {
					out = out.union(e.elements(d))
				} else {
					out = out.union(e.iterate(Set{d})) // dict(pairs)
				}
			}
		}
		for name, a := range kw {
			out = out.add(pair(Set{&Value{Kind: Str, Text: name}}, e.eval(m, a, nil)))
		}
		return out.union(e.additions(v))
	case "getmembers":
		if len(pos) == 0 {
			return nil
		}
		var pred Set
		if len(pos) > 1 {
			pred = e.eval(m, pos[1], nil)
		} else if kw["predicate"] != nil {
			pred = e.eval(m, kw["predicate"], nil)
		}
		var out Set
		for _, o := range e.eval(m, pos[0], nil) {
			out = out.union(e.members(o, pred))
		}
		return out
	}
	return nil
}

// members returns the (name, value) pairs inspect.getmembers(o, pred)
// lists, for a project module or class o: each name the module binds (its
// imports too, as getattr sees them) or the class and its project bases
// bind, with the values predicate pred can keep (predicate; no predicate
// keeps every value).
func (e *Engine) members(o *Value, pred Set) Set {
	var names []string
	switch o.Kind {
	case Module:
		names = o.Mod.Scope.Names()
	case Class, Instance:
		order, _ := e.mro(o.Class)
		seen := map[string]bool{}
		for _, k := range order {
			for _, n := range k.Scope.Names() {
				if !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	case Unknown:
		return Set{o}
	default:
		return Set{unknown("the members of " + o.String())}
	}
	keep := func(v *Value) bool { return true }
	if len(pred) == 1 {
		keep = e.predicate(pred[0])
	}
	// One (names, members) pair for all of them, as a dict comprehension's
	// entry is: a pair per member would make a union of pairs that a
	// module of more than 64 names overflows, losing its functions.
	var keys, vals Set
	for _, n := range names {
		kept := false
		for _, v := range e.attrOf(o, n) {
			if keep(v) {
				vals, kept = vals.add(v), true
			}
		}
		if kept {
			keys = keys.add(&Value{Kind: Str, Text: n})
		}
	}
	if len(vals) == 0 {
		return nil
	}
	return Set{pair(keys, vals)}
}

// mutationIndex returns the project's container mutations by the
// containers their object can be: every mutation's object is evaluated
// once, the first time a container's additions are asked for. (A mutation
// whose object's value needs the index itself, x[0].append(f), is indexed
// by what its object is without it.)
func (e *Engine) mutationIndex() map[string][]mutation {
	if e.lazy.mutBuilding {
		e.partial = true // an answer read from a partial index is not kept
		return nil
	}
	if e.lazy.mutBy != nil {
		return e.lazy.mutBy
	}
	e.lazy.mutBuilding = true
	by := map[string][]mutation{}
	steps, truncated, partial := e.steps, e.truncated, e.partial
	for _, mu := range e.mutations() {
		e.steps, e.truncated = 0, false // each object has a budget of its own
		for _, o := range e.eval(mu.m, mu.obj, nil) {
			if o.Kind == Container && o.View == Whole {
				by[o.Key()] = append(by[o.Key()], mu)
			}
		}
	}
	e.steps, e.truncated, e.partial = steps, truncated, partial
	e.forgetPartial()
	e.lazy.mutBy, e.lazy.mutBuilding = by, false
	return by
}

// additions returns what the project adds to container v.
func (e *Engine) additions(v *Value) Set {
	var out Set
	for _, mu := range e.mutationIndex()[v.withView(Whole).Key()] {
		m := mu.m
		if mu.kind == "[]=" {
			left := pyast.Unparen(mu.n.ChildByFieldName("left"))
			val := e.eval(m, pyast.AssignedValue(mu.n), nil)
			if v.Seq == "dict" {
				out = out.add(pair(e.eval(m, left.ChildByFieldName("subscript"), nil), val))
			} else {
				out = out.union(val)
			}
			continue
		}
		pos, kw := m.Args(mu.n)
		switch mu.kind {
		case "append", "add", "appendleft":
			if len(pos) == 1 {
				out = out.union(e.eval(m, pos[0], nil))
			}
		case "insert":
			if len(pos) == 2 {
				out = out.union(e.eval(m, pos[1], nil))
			}
		case "extend":
			if len(pos) == 1 {
				out = out.union(e.iterate(e.eval(m, pos[0], nil)))
			}
		case "setdefault":
			if len(pos) == 2 {
				out = out.add(pair(e.eval(m, pos[0], nil), e.eval(m, pos[1], nil)))
			}
		case "update":
			for _, a := range pos {
				for _, d := range e.eval(m, a, nil) {
					if d.Kind == Container && d.Seq == "dict" && d.View == Whole {
						out = out.union(e.elements(d))
					}
				}
			}
			for name, a := range kw {
				out = out.add(pair(Set{&Value{Kind: Str, Text: name}}, e.eval(m, a, nil)))
			}
		}
	}
	return out
}

// iterate returns what iterating the values yields.
func (e *Engine) iterate(vals Set) Set { return e.iterateAs(vals, false) }

// iterateAs is iterate for a for statement, async or not: an instance of a
// project class yields what its __next__ (__anext__) returns, on what its
// __iter__ (__aiter__) returns (protocol).
func (e *Engine) iterateAs(vals Set, async bool) Set {
	var out Set
	for _, v := range vals {
		if v.Kind == Instance {
			if _, next := e.protocol(v, async); len(next) > 0 {
				for _, r := range next {
					out = out.union(e.returns(r.Module, r.Func, nil))
				}
				continue
			}
		}
		switch v.Kind {
		case Container:
			els := e.elements(v)
			switch {
			case v.View == Items:
				out = out.union(els)
			case v.Seq == "dict" && v.View == Values:
				out = out.union(entryParts(els, 1))
			case v.Seq == "dict":
				out = out.union(entryParts(els, 0))
			default:
				out = out.union(els)
			}
		case Unknown:
			out = out.add(v)
		case Generator:
			out = out.add(unknown("a generator's values"))
		case Class:
			if ok, _ := e.enumKind(v.Class); ok {
				out = out.union(e.enumMembers(v))
				continue
			}
			out = out.add(unknown("what iterating " + v.String() + " yields"))
		default:
			out = out.add(unknown("what iterating " + v.String() + " yields"))
		}
	}
	return out
}

// item returns item i of a tuple value (a, b = v; for a, b in ...).
func (e *Engine) item(v *Value, i int) Set {
	switch v.Kind {
	case Container:
		if v.Site == nil {
			if i < len(v.Items) {
				return v.Items[i]
			}
			return nil
		}
		switch v.Site.Kind() {
		case "tuple", "list", "expression_list":
			var items []*pyast.Node
			for _, c := range pyast.NamedChildren(v.Site) {
				if c.Kind() == "list_splat" {
					return e.iterate(Set{v})
				}
				if c.Kind() != "comment" {
					items = append(items, c)
				}
			}
			if i < len(items) {
				return e.eval(v.Mod, items[i], nil)
			}
			return nil
		}
		return e.iterate(Set{v})
	case Unknown:
		return Set{v}
	}
	return Set{unknown("an item of " + v.String())}
}

// lookupKey returns container[key] for the key values given: the values of
// a dict's entries whose key can be one of them, an item of a list or
// tuple by a constant index, else any element.
func (e *Engine) lookupKey(v *Value, keys Set) Set {
	if v.View != Whole {
		return Set{unknown("an item of a dict view")}
	}
	if v.Seq == "dict" {
		var out Set
		for _, entry := range e.elements(v) {
			if entry.Kind != Container || len(entry.Items) != 2 {
				out = out.add(unknown("an entry of a dict"))
				continue
			}
			if keysMeet(entry.Items[0], keys) {
				out = out.union(entry.Items[1])
			}
		}
		return out
	}
	if len(keys) == 1 && keys[0].Kind == Const {
		if i, err := strconv.Atoi(keys[0].Text); err == nil && i >= 0 {
			return e.item(v, i)
		}
	}
	return e.iterate(Set{v})
}

// keysMeet reports whether a key of a can equal a key of b: two constants
// only when they are the same.
func keysMeet(a, b Set) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Kind != Str && x.Kind != Const || y.Kind != Str && y.Kind != Const {
				return true
			}
			if x.Kind == y.Kind && x.Text == y.Text {
				return true
			}
		}
	}
	return false
}

// entryParts returns the keys (i = 0) or values (1) of a dict's entries.
func entryParts(entries Set, i int) Set {
	var out Set
	for _, en := range entries {
		if en.Kind == Container && en.Site == nil && len(en.Items) == 2 {
			out = out.union(en.Items[i])
		} else {
			out = out.add(unknown("an entry of a dict"))
		}
	}
	return out
}

// protocol returns the methods iterating instance v runs, found through the
// MRO of its class: __iter__ and the __next__ of each instance it returns
// (async: __aiter__ and __anext__). An __iter__ that is missing leaves v's
// own __next__.
func (e *Engine) protocol(v *Value, async bool) (iter, next []FuncRef) {
	names := [2]string{"__iter__", "__next__"}
	if async {
		names = [2]string{"__aiter__", "__anext__"}
	}
	iterators := Set{v}
	if f, fm := e.classMethod(v, names[0]); f != nil {
		iter = append(iter, FuncRef{fm, f})
		iterators = e.returns(fm, f, nil)
	}
	seen := map[*pyast.Function]bool{}
	for _, it := range iterators {
		if it.Kind != Instance {
			continue
		}
		if f, fm := e.classMethod(it, names[1]); f != nil && !seen[f] {
			seen[f] = true
			next = append(next, FuncRef{fm, f})
		}
	}
	return iter, next
}
