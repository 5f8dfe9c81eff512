package values

import (
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// maxDepth bounds the nesting of evaluations (each memoised question and
// each expression it reads).
const maxDepth = 2000

// eval returns the values of expression n, memoised by node (and env).
func (e *Engine) eval(m *pyast.Module, n *pyast.Node, ev *env) Set {
	n = pyast.Unparen(n)
	if n == nil {
		return nil
	}
	if e.depth > maxDepth {
		return Set{unknown("evaluation too deep")}
	}
	e.depth++
	defer func() { e.depth-- }()
	switch n.Kind() {
	case "identifier":
		// Names are memoised through their bindings.
		return e.nameValues(m, n, m.TextView(n), ev)
	case "string", "concatenated_string":
		if s, ok := stringConst(m, n); ok {
			return Set{&Value{Kind: Str, Text: s}}
		}
		return Set{unknown("a formatted string")}
	case "integer", "float", "true", "false", "none":
		return Set{&Value{Kind: Const, Text: m.Text(n)}}
	case "list", "tuple", "set", "dictionary", "expression_list",
		"list_comprehension", "set_comprehension", "generator_expression", "dictionary_comprehension":
		return Set{&Value{Kind: Container, Mod: m, Site: n, Seq: seqOf(n.Kind())}}
	case "lambda":
		return Set{&Value{Kind: Function, Mod: m, Lambda: n}}
	case "await":
		return e.eval(m, n.NamedChild(0), ev)
	case "named_expression":
		return e.eval(m, n.ChildByFieldName("value"), ev)
	}
	return e.memoised(memoKey{kind: kNode, p: n, s: ev.keyOf()}, func() Set {
		switch n.Kind() {
		case "attribute":
			obj := n.ChildByFieldName("object")
			return e.attrOfSet(e.eval(m, obj, ev), m.TextView(n.ChildByFieldName("attribute")), ev)
		case "call":
			return e.callValues(m, n, ev)
		case "subscript":
			return e.subscriptValues(m, n, ev)
		case "conditional_expression":
			var out Set
			for i, c := range pyast.NamedChildren(n) {
				if i != 1 && c.Kind() != "comment" {
					out = out.union(e.eval(m, c, ev))
				}
			}
			return out
		case "boolean_operator":
			return e.eval(m, n.ChildByFieldName("left"), ev).union(e.eval(m, n.ChildByFieldName("right"), ev))
		case "binary_operator":
			if op := n.ChildByFieldName("operator"); op != nil && m.TextView(op) == "+" {
				l, r := e.eval(m, n.ChildByFieldName("left"), ev), e.eval(m, n.ChildByFieldName("right"), ev)
				if allKind(l, Container) && allKind(r, Container) {
					return l.union(r) // the elements of either
				}
			}
			return Set{unknown("an operator's result")}
		}
		return Set{unknown("a " + n.Kind() + " expression")}
	})
}

func allKind(s Set, k Kind) bool {
	for _, v := range s {
		if v.Kind != k {
			return false
		}
	}
	return len(s) > 0
}

func seqOf(kind string) string {
	switch kind {
	case "list", "list_comprehension":
		return "list"
	case "tuple", "expression_list", "generator_expression":
		return "tuple"
	case "set", "set_comprehension":
		return "set"
	}
	return "dict"
}

// stringConst returns the value of a string literal without interpolation
// (adjacent literals concatenated).
func stringConst(m *pyast.Module, n *pyast.Node) (string, bool) {
	if n.Kind() == "concatenated_string" {
		var sb strings.Builder
		for _, c := range pyast.NamedChildren(n) {
			s, ok := stringConst(m, c)
			if !ok {
				return "", false
			}
			sb.WriteString(s)
		}
		return sb.String(), true
	}
	if n.Kind() != "string" {
		return "", false
	}
	var sb strings.Builder
	for _, c := range pyast.NamedChildren(n) {
		switch c.Kind() {
		case "string_start":
			if p := strings.ToLower(m.TextView(c)); strings.ContainsAny(p, "fb") {
				return "", false
			}
		case "string_content":
			sb.WriteString(m.TextView(c))
		case "string_end":
		case "escape_sequence":
			if s, err := strconv.Unquote(`"` + m.TextView(c) + `"`); err == nil {
				sb.WriteString(s)
			} else {
				return "", false
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// loadedModule is sys.modules[key] in module m: m itself for
// sys.modules[__name__] (the module being run), the project module a
// constant names, else unknown.
func (e *Engine) loadedModule(m *pyast.Module, key *pyast.Node, ev *env) Set {
	key = pyast.Unparen(key)
	if key != nil && key.Kind() == "identifier" && m.TextView(key) == "__name__" && len(m.Scope.Lookup("__name__")) == 0 {
		return Set{&Value{Kind: Module, Mod: m}}
	}
	var out Set
	for _, k := range e.eval(m, key, ev) {
		if mm := e.byName[k.Text]; k.Kind == Str && mm != nil {
			out = out.add(&Value{Kind: Module, Mod: mm})
		} else {
			out = out.add(unknown("sys.modules of a module outside the project"))
		}
	}
	return out
}

// subscriptValues returns the values of v[k]: an item of a container, the
// class of a generic alias (FastMCP[None] is FastMCP).
func (e *Engine) subscriptValues(m *pyast.Module, n *pyast.Node, ev *env) Set {
	var keys Set
	keyNode := n.ChildByFieldName("subscript")
	keyDone := false
	var out Set
	for _, v := range e.eval(m, n.ChildByFieldName("value"), ev) {
		if v.Kind == External && v.Name == "sys.modules" {
			out = out.union(e.loadedModule(m, keyNode, ev))
			continue
		}
		switch v.Kind {
		case Class, External:
			out = out.add(v)
		case Container:
			if !keyDone {
				keys, keyDone = e.eval(m, keyNode, ev), true
			}
			out = out.union(e.lookupKey(v, keys))
		case Unknown:
			out = out.add(v)
		default:
			out = out.add(unknown("an item of " + v.String()))
		}
	}
	return out
}
