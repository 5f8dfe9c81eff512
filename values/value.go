package values

import (
	"sort"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Kind is the kind of an abstract value.
type Kind uint8

const (
	Unknown   Kind = iota // a value the engine cannot follow; Why says why
	Module                // a project module
	Class                 // a project class
	Function              // a project function (def, async def) or a lambda
	Method                // a project function bound to an instance or class (Self)
	Instance              // an instance of a project class
	External              // a name outside the project (Name: its qualified name)
	ExtResult             // what a call of an external name returns (Name: the callee's qualified name)
	Container             // a list, tuple, set or dict (Site: where it is built), or a view of one
	Str                   // a string constant (Text)
	Const                 // another constant (Text: None, True, 1, ...)
	Partial               // functools.partial(Of, ...): calling it calls Of
	Super                 // super() in a method of Class, bound to Self
	Generator             // what calling a generator function (Func) returns
)

// View says which part of a container a Container value stands for.
type View uint8

const (
	Whole  View = iota
	Keys        // d.keys(), iterating a dict
	Values      // d.values()
	Items       // d.items(): (key, value) tuples
)

// Value is one abstract value. Values are compared by Key.
type Value struct {
	Kind  Kind
	Mod   *pyast.Module   // the module of Func / Class / Site, or the module itself
	Func  *pyast.Function // Function, Method (nil with Lambda set), Generator
	Class *pyast.Class    // Class, Instance, Super, and the class a Method was found on
	// Lambda is the lambda node of a Function made by a lambda.
	Lambda *pyast.Node
	// Self is the receiver of a Method or Super (an Instance, or a Class for a
	// classmethod).
	Self *Value
	// Of is what a Partial calls.
	Of *Value
	// Site is the node a Container is built at (a literal, a comprehension, a
	// call such as zip(...)); Items are the positions of a tuple built by
	// the engine (zip, enumerate, items()), when Site is nil.
	Site  *pyast.Node
	Items []Set
	View  View
	// Seq is the kind of container: "list", "tuple", "set", "dict".
	Seq  string
	Name string // External, ExtResult
	Text string // Str, Const
	Why  string // Unknown
	// Member names the enum member an Instance is (READ for Tool.READ);
	// empty for other instances.
	Member string
	// Missing marks the unknown of an attribute nothing binds.
	Missing bool
	key     string // Key, once made
}

// withView returns container v seen as view w.
func (v *Value) withView(w View) *Value {
	if v.View == w {
		return v
	}
	c := *v
	c.View, c.key = w, ""
	return &c
}

// Key identifies a value for unions (made once: values are not changed
// once made).
func (v *Value) Key() string {
	if v.key == "" {
		v.key = v.makeKey()
	}
	return v.key
}

func (v *Value) makeKey() string {
	switch v.Kind {
	case Unknown:
		return "?" + v.Why
	case Module:
		return "mod " + v.Mod.Name + "\x00" + v.Mod.Path
	case Class:
		return "class " + v.Class.Qual + "\x00" + v.Mod.Path
	case Function:
		if v.Lambda != nil {
			return "lambda " + v.Mod.Path + "@" + itoa(int(v.Lambda.StartByte()))
		}
		return "func " + v.Func.Qual + "\x00" + v.Mod.Path + "@" + itoa(int(v.Func.Node.StartByte()))
	case Method:
		return "method " + v.Func.Qual + "@" + itoa(int(v.Func.Node.StartByte())) + " of " + v.Self.Key()
	case Instance:
		if v.Member != "" {
			return "inst " + v.Class.Qual + "\x00" + v.Mod.Path + "\x00" + v.Member
		}
		return "inst " + v.Class.Qual + "\x00" + v.Mod.Path
	case External:
		return "ext " + v.Name
	case ExtResult:
		return "extres " + v.Name
	case Container:
		k := "cont " + v.Seq + " " + itoa(int(v.View)) + " "
		if v.Site != nil {
			return k + v.Mod.Path + "@" + itoa(int(v.Site.StartByte())) + "-" + itoa(int(v.Site.EndByte()))
		}
		var parts []string
		for _, s := range v.Items {
			parts = append(parts, s.key())
		}
		return k + "(" + strings.Join(parts, ";") + ")"
	case Str:
		return "str " + v.Text
	case Const:
		return "const " + v.Text
	case Partial:
		return "partial " + v.Of.Key()
	case Super:
		return "super " + v.Class.Qual + " of " + v.Self.Key()
	case Generator:
		return "gen " + v.Func.Qual + "\x00" + v.Mod.Path + "@" + itoa(int(v.Func.Node.StartByte()))
	}
	return "?"
}

// String renders a value for tests and messages.
func (v *Value) String() string {
	switch v.Kind {
	case Unknown:
		return "unknown(" + v.Why + ")"
	case Module:
		return "module " + v.Mod.Name
	case Class:
		return "class " + v.Class.Qual
	case Function:
		if v.Lambda != nil {
			return "lambda@" + itoa(v.Mod.Pos(int(v.Lambda.StartByte())).Line)
		}
		return "func " + v.Func.Qual
	case Method:
		switch {
		case v.Self.Kind == Class:
			return "method " + v.Func.Qual + " of class " + v.Self.Class.Qual
		case v.Self.Kind == Instance && v.Self.Class != v.Class:
			return "method " + v.Func.Qual + " of instance " + v.Self.Class.Qual
		}
		return "method " + v.Func.Qual
	case Instance:
		if v.Member != "" {
			return "member " + v.Class.Qual + "." + v.Member
		}
		return "instance " + v.Class.Qual
	case External:
		return "ext " + v.Name
	case ExtResult:
		return "ext " + v.Name + "()"
	case Container:
		s := v.Seq
		switch v.View {
		case Keys:
			s += ".keys"
		case Values:
			s += ".values"
		case Items:
			s += ".items"
		}
		if v.Site != nil {
			return s + "@" + itoa(v.Mod.Pos(int(v.Site.StartByte())).Line)
		}
		var parts []string
		for _, it := range v.Items {
			parts = append(parts, it.String())
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case Str:
		return "str " + v.Text
	case Const:
		return "const " + v.Text
	case Partial:
		return "partial " + v.Of.String()
	case Super:
		return "super of " + v.Class.Qual
	case Generator:
		return "generator " + v.Func.Qual
	}
	return "?"
}

// Set is a union of values, each once, in the order first added.
type Set []*Value

// maxSet is the most values a union keeps: past it the rest is unknown.
// The project's own code (functions, bound methods, partials of them,
// classes and their instances) has a bound of its own, maxFuncs: a registry
// gathers every handler of a server into one list (hundreds, where other
// unions stay small), and the handlers it holds past the bound would be
// lost; an instance that a union of library results crowds out would lose
// the methods it runs (its __anext__ in an async for).
const (
	maxSet   = 64
	maxFuncs = 256
)

// overflowed reports whether s went past its bound (it holds overflow).
func (s Set) overflowed() bool {
	for _, v := range s {
		if v.Kind == Unknown && v.Why == overflow {
			return true
		}
	}
	return false
}

// overflow is the unknown a union past its bound holds.
const overflow = "more than 64 values (256 of project code)"

// add adds v unless a value with its key is in s.
func (s Set) add(v *Value) Set {
	if v == nil {
		return s
	}
	k := v.Key()
	full := false
	for _, w := range s {
		if w.Key() == k {
			return s
		}
		full = full || w.Kind == Unknown && w.Why == overflow
	}
	limit := maxSet
	switch v.Kind {
	case Function, Method, Partial, Class, Instance:
		limit = maxFuncs
	}
	if len(s) < limit {
		return append(s, v)
	}
	if !full {
		return append(s, unknown(overflow))
	}
	return s
}

// union returns s with every value of t added.
func (s Set) union(t Set) Set {
	for _, v := range t {
		s = s.add(v)
	}
	return s
}

func (s Set) key() string {
	var parts []string
	for _, v := range s {
		parts = append(parts, v.Key())
	}
	sort.Strings(parts)
	return strings.Join(parts, "|")
}

// String renders the set sorted, values joined by " | "; "none" when empty.
func (s Set) String() string {
	if len(s) == 0 {
		return "none"
	}
	var parts []string
	for _, v := range s {
		parts = append(parts, v.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, " | ")
}

// functions returns the project functions the values of s can run when
// called: functions, bound methods, partials of them, and the __init__
// (through the MRO) of classes constructed. The caller holds e.mu.
func (e *Engine) functions(s Set) []FuncRef {
	var out []FuncRef
	seen := map[*pyast.Function]bool{}
	add := func(m *pyast.Module, f *pyast.Function) {
		if f != nil && !seen[f] {
			seen[f] = true
			out = append(out, FuncRef{m, f})
		}
	}
	var visit func(v *Value, depth int)
	visit = func(v *Value, depth int) {
		if depth > 4 {
			return
		}
		switch v.Kind {
		case Function, Method:
			add(v.Mod, v.Func)
		case Class:
			if f, m := e.classMethod(v, "__init__"); f != nil {
				add(m, f)
			}
		case Instance:
			// Calling an instance runs its class's __call__.
			if f, m := e.classMethod(v, "__call__"); f != nil {
				add(m, f)
			}
		case Partial:
			visit(v.Of, depth+1)
		}
	}
	for _, v := range s {
		visit(v, 0)
	}
	return out
}

// FuncRef is a project function with its module.
type FuncRef struct {
	Module *pyast.Module
	Func   *pyast.Function
}

func unknown(why string) *Value { return &Value{Kind: Unknown, Why: why} }

// missing is the unknown of an attribute the engine finds no binding of
// (getattr with a default gives the default instead).
func missing(why string) *Value { return &Value{Kind: Unknown, Why: why, Missing: true} }

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
