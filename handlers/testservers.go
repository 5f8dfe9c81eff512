package handlers

import (
	"slices"

	"github.com/mcplint/mcplint/pyast"
)

// A test often builds a server only to look at it: it registers tools,
// mounts another server into it, reads its tool manager, and never serves
// it (magg's test_client_mounting). Such a server answers no request, so
// what is registered on it cannot crash anything. unservedTestServer tells
// such a registration: its site is in a function of a test module, on a
// name bound only there, to a server constructor, and every use of that
// name in the function is one of those looks (nonServing attributes, or an
// argument of an introspection builtin such as hasattr), or hands it to
// code that only looks at it (handedToLooks: a return to callers that only
// look, a project helper that reads its components). Any other use
// (Client(server), server.run(), other.mount(server=server), an alias, a
// call of a method not listed) counts as serving it.

// nonServing are the attributes of a server a test can use without serving
// it: registration, mounting into it, and looking at what it holds.
var nonServing = map[string]bool{
	"tool": true, "resource": true, "prompt": true, "completion": true, "add_tool": true, "add_resource": true,
	"add_prompt": true, "add_template": true, "add_resource_fn": true, "remove_tool": true, "mount": true,
	"import_server": true, "add_provider": true, "add_middleware": true, "custom_route": true, "name": true,
	"settings": true, "get_tools": true, "get_tool": true, "get_resources": true, "get_resource_templates": true,
	"get_prompts": true, "list_tools": true, "list_resources": true, "list_prompts": true, "call_tool": true,
	"_tool_manager": true, "_resource_manager": true, "_prompt_manager": true, "_mounted_servers": true,
	"local_provider": true, "_local_provider": true,
}

// introspection are builtins that only look at their argument.
var introspection = map[string]bool{
	"hasattr": true, "getattr": true, "isinstance": true, "print": true, "len": true, "repr": true, "str": true,
	"type": true, "id": true, "vars": true, "dir": true,
}

// unservedTestServer reports whether a registration site in a test module
// registers on a server its function builds and never serves (see above).
func (b *builder) unservedTestServer(m *pyast.Module, site *pyast.Node) bool {
	if !isTestModule(m) || site == nil {
		return false
	}
	f := m.FuncAt(site)
	recv := pyast.Unparen(site)
	if recv.Kind() == "call" {
		recv = pyast.Unparen(pyast.Callee(recv))
	}
	if f == nil || recv == nil || recv.Kind() != "attribute" {
		return false
	}
	obj := pyast.Unparen(recv.ChildByFieldName("object"))
	if obj == nil || obj.Kind() != "identifier" {
		return false
	}
	name := m.TextView(obj)
	bs := m.ScopeAt(obj).Lookup(name)
	if len(bs) == 0 {
		return false
	}
	for _, bd := range bs {
		if bd.Kind != pyast.BindValue || bd.Node == nil || m.FuncAt(bd.Node) != f || bd.Value() == nil || m.Unpacked(bd) >= 0 ||
			b.serverValues(b.engine.Eval(m, bd.Value())) == FrameworkUnknown {
			return false
		}
	}
	served := false
	pyast.Walk(f.Body, func(n *pyast.Node) bool {
		if served {
			return false
		}
		if n.Kind() != "identifier" || m.TextView(n) != name || definitionName(n) {
			return true
		}
		served = !lookOnly(m, n) && !b.handedToLooks(m, n, 0)
		return true
	})
	return !served
}

// handedToLooks reports whether the use n of a server (a name bound to it
// in a function of module m) only hands it to code that looks at it: n is
// returned, and every call of the function binds the result to a name its
// own function only looks at (a test's helper that builds the server its
// tests inspect); or n is a positional argument of project functions whose
// parameter is only looked at (a helper that reads its components). Two
// calls deep at most; anything else serves it.
func (b *builder) handedToLooks(m *pyast.Module, n *pyast.Node, depth int) bool {
	p := n.Parent()
	if p == nil || depth > 2 {
		return false
	}
	switch p.Kind() {
	case "return_statement":
		f := m.FuncAt(n)
		if f == nil || !isTestModule(m) {
			return false
		}
		found := false
		for s := range b.callSitesOf(f) {
			found = true
			asg := s.call.Parent()
			if asg == nil || asg.Kind() != "assignment" || !s.call.Equals(pyast.AssignedValue(asg)) {
				return false
			}
			l := pyast.Unparen(asg.ChildByFieldName("left"))
			if l == nil || l.Kind() != "identifier" || s.caller == nil {
				return false
			}
			bound := func(bd *pyast.Binding) bool { return bd.Kind == pyast.BindValue }
			if !b.usesOnlyLook(s.module, s.caller, s.module.TextView(l), bound, depth+1) {
				return false
			}
		}
		return found
	case "argument_list":
		call := p.Parent()
		pos, _ := m.Args(call)
		i := slices.IndexFunc(pos, func(c *pyast.Node) bool { return c.Equals(n) })
		refs := b.engineOf[call]
		if i < 0 || len(refs) == 0 {
			return false
		}
		for _, r := range refs {
			f := r.Func
			if f.Class != nil || i >= len(f.Params) || f.Params[i].Kind != pyast.ParamPositional {
				return false
			}
			param := func(bd *pyast.Binding) bool { return bd.Kind == pyast.BindParam }
			if !b.usesOnlyLook(r.Module, f, f.Params[i].Name, param, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// usesOnlyLook reports whether every use of name in function f's body is a
// look of lookOnly or hands the server on to looks (handedToLooks), the
// name being bound in f only, by bindings bound accepts (the parameter,
// or the assignment of a helper's result).
func (b *builder) usesOnlyLook(m *pyast.Module, f *pyast.Function, name string, bound func(*pyast.Binding) bool, depth int) bool {
	if f.Body == nil {
		return false
	}
	ok := true
	pyast.Walk(f.Body, func(u *pyast.Node) bool {
		if !ok {
			return false
		}
		if u.Kind() != "identifier" || m.TextView(u) != name || definitionName(u) {
			return true
		}
		for _, bd := range m.ScopeAt(u).Lookup(name) {
			if !bound(bd) || bd.Node == nil || m.FuncAt(bd.Node) != f {
				ok = false
				return false
			}
		}
		ok = lookOnly(m, u) || b.handedToLooks(m, u, depth)
		return true
	})
	return ok
}

// lookOnly reports whether the use n of a server's name neither serves it
// nor lets it escape: the target of its assignment, the object of a
// nonServing attribute, an argument of an introspection builtin, or an
// operand of a comparison, a not or an assert.
func lookOnly(m *pyast.Module, n *pyast.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	switch p.Kind() {
	case "assignment":
		left := p.ChildByFieldName("left")
		return left != nil && left.Id() == n.Id()
	case "attribute":
		obj, attr := p.ChildByFieldName("object"), p.ChildByFieldName("attribute")
		return obj != nil && obj.Id() == n.Id() && attr != nil && nonServing[m.TextView(attr)]
	case "argument_list":
		callee := pyast.Unparen(pyast.Callee(p.Parent()))
		return callee != nil && callee.Kind() == "identifier" && introspection[m.TextView(callee)]
	case "comparison_operator", "not_operator", "assert_statement":
		// assert mcp is not None, not server, assert server: a test of the
		// object itself, not a use of it.
		return true
	}
	return false
}

// unservedTestComponent reports whether site, a component constructor's
// call (Prompt.from_function(fn=handler)) in a function of a test module,
// makes a component that function only looks at: the call's value is bound
// to a name only there, and every use of that name is the object of an
// attribute (prompt.fn(), prompt.convert_result(...), await
// prompt.render(...)) or a look of lookOnly. Passing it on (mcp.add_prompt(
// prompt), FastMCP(tools=[tool]), return tool) serves it, as does a call
// whose value is not bound to a name.
func unservedTestComponent(m *pyast.Module, site *pyast.Node) bool {
	if !isTestModule(m) || site == nil || site.Kind() != "call" {
		return false
	}
	f := m.FuncAt(site)
	asg := site.Parent()
	if f == nil || asg == nil || asg.Kind() != "assignment" || !site.Equals(asg.ChildByFieldName("right")) {
		return false
	}
	left := asg.ChildByFieldName("left")
	if left == nil || left.Kind() != "identifier" {
		return false
	}
	name := m.TextView(left)
	served := false
	pyast.Walk(f.Body, func(n *pyast.Node) bool {
		if served || n.Kind() == "import_from_statement" || n.Kind() == "import_statement" {
			return false // from fastmcp.prompts.prompt import Prompt names a module
		}
		if n.Kind() != "identifier" || m.TextView(n) != name || definitionName(n) || n.Equals(left) {
			return true
		}
		if p := n.Parent(); p != nil && p.Kind() == "attribute" && n.Equals(p.ChildByFieldName("object")) {
			return true
		}
		served = !lookOnly(m, n)
		return true
	})
	return !served
}
