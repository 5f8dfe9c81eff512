package values

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Enum classes (a project class with enum.Enum, StrEnum, IntEnum, Flag or
// IntFlag in its MRO) hold members, not plain class attributes: Tool.READ
// is an instance of Tool (an Instance whose Member is READ), its .value is
// what the class body assigns to READ and its .name the string "READ";
// iterating the class yields its members in the order the body defines
// them, and calling it (Tool("read")) gives the members whose value can be
// the argument. A StrEnum member is also the string of its value, so a
// getattr or an import_module of one names that string (textOf).

// enumBases are the library classes that make a class an enum.
var enumBases = map[string]bool{
	"enum.Enum": true, "enum.IntEnum": true, "enum.StrEnum": true,
	"enum.Flag": true, "enum.IntFlag": true, "enum.ReprEnum": true,
}

// enumKind tells whether class c is an enum and, if so, whether its members
// are strings (a StrEnum, or an enum with str among its bases).
func (e *Engine) enumKind(c *pyast.Class) (isEnum, isStr bool) {
	_, ext := e.mro(c)
	for _, x := range ext {
		if enumBases[x] {
			isEnum = true
		}
		if x == "enum.StrEnum" || x == "str" {
			isStr = true
		}
	}
	return isEnum, isEnum && isStr
}

// strEnumAuto reports whether auto() in enum class c gives the member's
// name lowercased: c is a StrEnum and no project class of its MRO defines
// _generate_next_value_ (a str mixin's auto() gives "1", "2", ...).
func (e *Engine) strEnumAuto(c *pyast.Class) bool {
	order, ext := e.mro(c)
	for _, k := range order {
		if k.Methods["_generate_next_value_"] != nil {
			return false
		}
	}
	for _, x := range ext {
		if x == "enum.StrEnum" {
			return true
		}
	}
	return false
}

// enumMember is one member of an enum class: its name and the assignment
// that defines it.
type enumMember struct {
	name  string
	value *pyast.Node
}

// enumDefs returns the members enum class c defines in its body, in
// order: the names its body assigns, but for dunder, sunder (_x_) and
// private (__x) names, the names _ignore_ lists, and descriptors (a lambda,
// a def assigned again), which Python does not make members. (An alias, a
// second name for a value already assigned, counts as a member of its own
// here; Python makes it the first member.)
func (e *Engine) enumDefs(m *pyast.Module, c *pyast.Class) []enumMember {
	body := c.Node.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	var out []enumMember
	ignored := map[string]bool{}
	for _, st := range pyast.NamedChildren(body) {
		if st.Kind() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		a := st.NamedChild(0)
		if a.Kind() != "assignment" {
			continue
		}
		l, v := a.ChildByFieldName("left"), pyast.AssignedValue(a)
		if l == nil || l.Kind() != "identifier" || v == nil || pyast.Unparen(v).Kind() == "lambda" {
			continue
		}
		name := m.Text(l)
		if name == "_ignore_" {
			for _, x := range e.eval(m, v, nil) {
				for _, it := range e.iterate(Set{x}) {
					if it.Kind == Str {
						ignored[it.Text] = true
					}
				}
				if x.Kind == Str {
					for _, f := range strings.Fields(x.Text) {
						ignored[f] = true
					}
				}
			}
			continue
		}
		sunder := len(name) > 2 && name[0] == '_' && name[len(name)-1] == '_'
		if strings.HasPrefix(name, "__") || sunder || descriptor(e.eval(m, v, nil)) {
			continue
		}
		out = append(out, enumMember{name, v})
	}
	kept := out[:0]
	for _, mb := range out {
		if !ignored[mb.name] {
			kept = append(kept, mb)
		}
	}
	return kept
}

// descriptor reports whether every value of vals is a function, which a
// class body binds as a method, not as an enum member.
func descriptor(vals Set) bool {
	for _, v := range vals {
		if v.Kind != Function && v.Kind != Method {
			return false
		}
	}
	return len(vals) > 0
}

// enumMemberValue returns member name of enum class k, when k defines it.
func (e *Engine) enumMemberValue(k *pyast.Class, name string) *Value {
	if ok, _ := e.enumKind(k); !ok {
		return nil
	}
	km := e.clsMod[k]
	for _, mb := range e.enumDefs(km, k) {
		if mb.name == name {
			return &Value{Kind: Instance, Mod: km, Class: k, Member: name}
		}
	}
	return nil
}

// enumMembers returns every member of the enum class of v (a class, or an
// instance not known to be one member).
func (e *Engine) enumMembers(v *Value) Set {
	var out Set
	for _, mb := range e.enumDefs(e.clsMod[v.Class], v.Class) {
		out = out.add(&Value{Kind: Instance, Mod: e.clsMod[v.Class], Class: v.Class, Member: mb.name})
	}
	return out
}

// enumAttr returns attribute value or name of an instance of an enum
// class: for a member, what its definition assigns and its name; for an
// instance not known to be one member, those of every member. ok is false
// for other attributes (methods are looked up on the class as for any
// instance).
func (e *Engine) enumAttr(v *Value, name string) (Set, bool) {
	if name != "value" && name != "name" && name != "_value_" && name != "_name_" {
		return nil, false
	}
	if isEnum, _ := e.enumKind(v.Class); !isEnum {
		return nil, false
	}
	lowerAuto := e.strEnumAuto(v.Class)
	all := Set{v}
	if v.Member == "" {
		all = e.enumMembers(v)
	}
	km := e.clsMod[v.Class]
	defs := e.enumDefs(km, v.Class)
	var out Set
	for _, mv := range all {
		if strings.Trim(name, "_") == "name" {
			out = out.add(&Value{Kind: Str, Text: mv.Member})
			continue
		}
		for _, mb := range defs {
			if mb.name != mv.Member {
				continue
			}
			vals := e.eval(km, mb.value, nil)
			for _, x := range vals {
				if x.Kind == ExtResult && x.Name == "enum.auto" && lowerAuto {
					// StrEnum's auto() is the member's name, lowercased.
					x = &Value{Kind: Str, Text: strings.ToLower(mb.name)}
				}
				out = out.add(x)
			}
		}
	}
	return out, true
}

// enumCall returns the members of enum class c whose value can be what
// the call passes (Tool("read") is Tool.READ).
func (e *Engine) enumCall(c *Value, arg Set) Set {
	var out Set
	for _, mv := range e.enumMembers(c) {
		vals, _ := e.enumAttr(mv, "value")
		if keysMeet(vals, arg) || len(arg) == 0 {
			out = out.add(mv)
		}
	}
	if len(out) == 0 {
		return Set{&Value{Kind: Instance, Mod: c.Mod, Class: c.Class}}
	}
	return out
}

// textOf returns the string value v stands for: a string constant, or a
// member of a string enum whose value is one.
func (e *Engine) textOf(v *Value) (string, bool) {
	switch v.Kind {
	case Str:
		return v.Text, true
	case Instance:
		if v.Member == "" {
			return "", false
		}
		if _, isStr := e.enumKind(v.Class); !isStr {
			return "", false
		}
		vals, _ := e.enumAttr(v, "value")
		if len(vals) == 1 && vals[0].Kind == Str {
			return vals[0].Text, true
		}
	}
	return "", false
}
