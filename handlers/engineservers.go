package handlers

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// Server objects are what the value-flow engine (package values) says an
// expression can be: what a call of an MCP server class returns
// (serverClasses), of a fastmcp factory (FastMCP.from_openapi,
// create_proxy), or an instance of a project class with a server class
// among its bases. The engine follows the bindings (imports in any scope,
// a shim module's try/except union, self.Server() of a class-body import,
// parameters by their annotation and by the arguments of their call
// sites, return values, attributes), so this file only says which values
// are servers.

// serverAttrs are the attributes whose object is asked whether it is a
// server: registration methods and decorators, and run methods.
func serverAttr(attr string) bool {
	return decoratorKinds[attr] || lowLevelKinds[attr] || addMethods[attr] != "" || runMethods[attr] ||
		attr == "add_request_handler" || attr == "request_handlers"
}

// engineServers asks the engine, once and in module and document order
// (so that the answers do not depend on the workers that read them),
// whether the object of each attribute named by serverAttr is a server.
func (b *builder) engineServers() {
	b.serverAt = map[*pyast.Node]Framework{}
	ask := func(m *pyast.Module, n *pyast.Node) {
		n = pyast.Unparen(n)
		if n == nil || n.Kind() != "attribute" || !serverAttr(m.TextView(n.ChildByFieldName("attribute"))) {
			return
		}
		obj := pyast.Unparen(n.ChildByFieldName("object"))
		if _, done := b.serverAt[obj]; obj != nil && !done {
			b.serverAt[obj] = b.serverValues(b.engine.Eval(m, obj))
		}
	}
	for _, m := range b.mods {
		for _, f := range m.Funcs {
			for _, d := range f.Decorators {
				ask(m, decoratorFunc(d))
			}
		}
		for call := range m.Nodes("call") {
			ask(m, pyast.Callee(call))
		}
		for n := range m.Nodes("assignment") {
			if l := pyast.Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "subscript" {
				ask(m, l.ChildByFieldName("value"))
			}
		}
	}
}

// serverValues returns the framework of the first server among vs.
func (b *builder) serverValues(vs values.Set) Framework {
	for _, v := range vs {
		switch v.Kind {
		case values.ExtResult:
			if f := extServer(v.Name); f != FrameworkUnknown {
				return f
			}
		case values.Instance:
			if f := b.serverClassValue(v.Class); f != FrameworkUnknown {
				return f
			}
		}
	}
	return FrameworkUnknown
}

// serverClassValue returns the framework of a project class that is an MCP
// server class or has one among its bases.
func (b *builder) serverClassValue(c *pyast.Class) Framework {
	order, ext := b.engine.Bases(c)
	for _, k := range order { // the SDK's own code, or a vendored copy
		if f, ok := serverClasses[k.Qual]; ok {
			return f
		}
	}
	for _, x := range ext {
		if f, ok := serverClasses[x]; ok {
			return f
		}
	}
	return FrameworkUnknown
}

// extServer returns the framework of the server a call of library name q
// returns: a server class, a server function, or a factory class method of
// fastmcp's FastMCP (through a project subclass too: the engine names the
// method by the library base it is found on).
func extServer(q string) Framework {
	if f, ok := serverClasses[q]; ok {
		return f
	}
	if f, ok := serverFunctions[q]; ok {
		return f
	}
	if i := strings.LastIndexByte(q, '.'); i >= 0 && serverFactories[q[i+1:]] && serverClasses[q[:i]] == PrefectFastMCP {
		return PrefectFastMCP
	}
	return FrameworkUnknown
}

// engineServerOf is serverOf's answer from the engine.
func (b *builder) engineServerOf(m *pyast.Module, expr *pyast.Node) Framework {
	if f, ok := b.serverAt[expr]; ok {
		return f
	}
	return b.serverValues(b.engine.Eval(m, expr))
}

// engineFuncs returns the project functions the engine says expression n
// can be (not what calling it runs: a class is not its __init__).
func (b *builder) engineFuncs(m *pyast.Module, n *pyast.Node) []FuncRef {
	var out []FuncRef
	for _, v := range b.engine.Eval(m, n) {
		if (v.Kind == values.Function || v.Kind == values.Method) && v.Func != nil {
			out = append(out, FuncRef{v.Mod, v.Func})
		}
	}
	return out
}

// decoratorRuns returns the project functions decorator d runs when it is
// applied: what the engine says its function (the callee of a decorator
// call, @retry(3)) can be.
func (b *builder) decoratorRuns(m *pyast.Module, d *pyast.Node) []FuncRef {
	return b.engineFuncs(m, decoratorFunc(d))
}

// engineTargets returns the handlers the engine says expression n can be:
// its project functions; for a decorator's wrapper (a function nested in a
// decorator that runs the decorator's first parameter: @wraps(func) def
// wrapper), the functions the decorator is applied to, with the wrapper
// that matches each (an async wrapper for a coroutine function where the
// decorator has both) as their wrapper.
func (b *builder) engineTargets(m *pyast.Module, n *pyast.Node) []target {
	return b.wrappedTargets(b.engineFuncs(m, n), 0)
}

// mayBeCalled reports whether a value of vs can be something to call: all
// but containers, strings, other constants, generator objects and
// instances of the builtin data types (a parameter annotated dict); what
// the engine cannot tell, another external value, may be.
func mayBeCalled(vs values.Set) bool {
	for _, v := range vs {
		switch {
		case v.Kind == values.Container, v.Kind == values.Str, v.Kind == values.Const, v.Kind == values.Generator:
		case v.Kind == values.ExtResult && dataTypes[strings.TrimPrefix(strings.TrimPrefix(v.Name, "builtins."), "typing.")]:
		default:
			return true
		}
	}
	return false
}

// dataTypes are the builtin types (and their typing aliases) whose
// instances cannot be called.
var dataTypes = map[string]bool{
	"dict": true, "list": true, "set": true, "frozenset": true, "tuple": true, "str": true, "bytes": true,
	"bytearray": true, "int": true, "float": true, "complex": true, "bool": true,
	"Dict": true, "List": true, "Set": true, "FrozenSet": true, "Tuple": true,
}

func (b *builder) wrappedTargets(fs []FuncRef, depth int) []target {
	var out []target
	for _, r := range fs {
		if !b.runsParentParam(r.Func) {
			out = append(out, target{ref: r})
			continue
		}
		if depth > 3 {
			continue // a wrapper of wrappers of itself (wrapped = deco(wrapped)): not a handler
		}
		d := r.Func.Parent
		hasAsync := map[bool]bool{}
		for _, w := range fs {
			if w.Func.Parent == d {
				hasAsync[w.Func.Async()] = true
			}
		}
		pv := b.engine.Param(b.moduleOf[d], d, 0)
		if len(pv) > 0 && !mayBeCalled(pv) {
			// def make(data): def handler(): return json.dumps(data): a
			// closure over data, which its calls only pass on, and data
			// is no function: handler is what make returns, no wrapper.
			out = append(out, target{ref: r})
			continue
		}
		var inner []FuncRef
		for _, v := range pv {
			if (v.Kind == values.Function || v.Kind == values.Method) && v.Func != nil {
				inner = append(inner, FuncRef{v.Mod, v.Func})
			}
		}
		for _, t := range b.wrappedTargets(inner, depth+1) {
			if a := t.ref.Func.Async(); a != r.Func.Async() && hasAsync[a] {
				continue // the decorator's other wrapper runs it
			}
			t.wrappers = append(t.wrappers[:len(t.wrappers):len(t.wrappers)], r.Func)
			out = append(out, t)
		}
	}
	return out
}
