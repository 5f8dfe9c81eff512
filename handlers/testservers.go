package handlers

import "github.com/mcplint/mcplint/pyast"

// A test often builds a server only to look at it: it registers tools,
// mounts another server into it, reads its tool manager, and never serves
// it (magg's test_client_mounting). Such a server answers no request, so
// what is registered on it cannot crash anything. unservedTestServer tells
// such a registration: its site is in a function of a test module, on a
// name bound only there, to a server constructor, and every use of that
// name in the function is one of those looks (nonServing attributes, or an
// argument of an introspection builtin such as hasattr). Any other use
// (Client(server), server.run(), other.mount(server=server), return server,
// an alias, a call of a method not listed) counts as serving it.

// nonServing are the attributes of a server a test can use without serving
// it: registration, mounting into it, and looking at what it holds.
var nonServing = map[string]bool{
	"tool": true, "resource": true, "prompt": true, "completion": true, "add_tool": true, "add_resource": true,
	"add_prompt": true, "add_template": true, "add_resource_fn": true, "remove_tool": true, "mount": true,
	"import_server": true, "add_provider": true, "add_middleware": true, "custom_route": true, "name": true,
	"settings": true, "get_tools": true, "get_tool": true, "get_resources": true, "get_resource_templates": true,
	"get_prompts": true, "list_tools": true, "list_resources": true, "list_prompts": true, "call_tool": true,
	"_tool_manager": true, "_resource_manager": true, "_prompt_manager": true, "_mounted_servers": true,
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
		served = !lookOnly(m, n)
		return true
	})
	return !served
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
