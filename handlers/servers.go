package handlers

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// serverClasses maps the qualified names of MCP server classes to their
// framework. Subclasses defined in the project are followed through bases.
var serverClasses = map[string]Framework{
	"mcp.server.fastmcp.FastMCP":            OfficialFastMCP,
	"mcp.server.FastMCP":                    OfficialFastMCP,
	"mcp.server.fastmcp.server.FastMCP":     OfficialFastMCP,
	"mcp.server.mcpserver.MCPServer":        OfficialMCPServer,
	"mcp.server.mcpserver.server.MCPServer": OfficialMCPServer,
	"mcp.server.MCPServer":                  OfficialMCPServer,
	"mcp.server.Server":                     OfficialLowLevel,
	"mcp.server.lowlevel.Server":            OfficialLowLevel,
	"mcp.server.lowlevel.server.Server":     OfficialLowLevel,
	"fastmcp.FastMCP":                       PrefectFastMCP,
	"fastmcp.server.FastMCP":                PrefectFastMCP,
	"fastmcp.server.server.FastMCP":         PrefectFastMCP,
	"fastmcp.server.FastMCPServer":          PrefectFastMCP,
	// fastmcp 3 providers: their components are served by the server they
	// are added to (mcp.add_provider(app), FastMCP(providers=[app])).
	"fastmcp.FastMCPApp":                                                   PrefectFastMCP,
	"fastmcp.apps.FastMCPApp":                                              PrefectFastMCP,
	"fastmcp.apps.app.FastMCPApp":                                          PrefectFastMCP,
	"fastmcp.server.app.FastMCPApp":                                        PrefectFastMCP,
	"fastmcp.server.providers.LocalProvider":                               PrefectFastMCP,
	"fastmcp.server.providers.local_provider.LocalProvider":                PrefectFastMCP,
	"fastmcp.server.providers.local_provider.local_provider.LocalProvider": PrefectFastMCP,
}

// ServerClass returns the framework of a server class's qualified name.
func ServerClass(qual string) (Framework, bool) {
	f, ok := serverClasses[qual]
	return f, ok
}

// serverFactories are the class methods of PrefectHQ fastmcp's FastMCP that
// build a server of their class: mcp = FastMCP.from_openapi(spec, client),
// FastMCP.from_fastapi(app), FastMCP.as_proxy(backend) (fastmcp 2.x).
var serverFactories = map[string]bool{"from_openapi": true, "from_fastapi": true, "as_proxy": true}

// serverFunctions are fastmcp functions that return a server (fastmcp 3's
// replacement of FastMCP.as_proxy).
var serverFunctions = map[string]Framework{"fastmcp.server.create_proxy": PrefectFastMCP}

// factoryFramework returns PrefectFastMCP when q names a call that builds a
// fastmcp server: a server function, or a factory class method of
// fastmcp.FastMCP or of a project subclass of it; FrameworkUnknown otherwise.
func (b *builder) factoryFramework(q string, depth int) Framework {
	if f, ok := serverFunctions[q]; ok {
		return f
	}
	i := strings.LastIndexByte(q, '.')
	if i < 0 || !serverFactories[q[i+1:]] {
		return FrameworkUnknown
	}
	cls := q[:i]
	f, ok := serverClasses[cls]
	if !ok && b.lookup(cls).class != nil {
		f = b.frameworkOfQual(cls, depth+1)
	}
	if f != PrefectFastMCP {
		return FrameworkUnknown
	}
	return f
}

// standalone decorators of PrefectHQ fastmcp (from fastmcp.tools import tool).
var standaloneDecorators = map[string]string{
	"fastmcp.tools.tool":               "tool",
	"fastmcp.tools.function_tool.tool": "tool",
	"fastmcp.tool":                     "tool",
	"fastmcp.resources.resource":       "resource",
	"fastmcp.resource":                 "resource",
	"fastmcp.prompts.prompt":           "prompt",
	"fastmcp.prompt":                   "prompt",
}

// fromFunction constructors that wrap a handler function into a component.
var fromFunction = map[string]Framework{
	"mcp.server.fastmcp.tools.Tool.from_function":                 OfficialFastMCP,
	"mcp.server.fastmcp.tools.base.Tool.from_function":            OfficialFastMCP,
	"mcp.server.fastmcp.prompts.Prompt.from_function":             OfficialFastMCP,
	"mcp.server.fastmcp.prompts.base.Prompt.from_function":        OfficialFastMCP,
	"mcp.server.fastmcp.resources.FunctionResource.from_function": OfficialFastMCP,
	"mcp.server.mcpserver.tools.Tool.from_function":               OfficialMCPServer,
	"fastmcp.tools.Tool.from_function":                            PrefectFastMCP,
	"fastmcp.tools.FunctionTool.from_function":                    PrefectFastMCP,
	"fastmcp.tools.tool.Tool.from_function":                       PrefectFastMCP,
	"fastmcp.tools.tool.FunctionTool.from_function":               PrefectFastMCP,
	"fastmcp.tools.function_tool.FunctionTool.from_function":      PrefectFastMCP,
	"fastmcp.prompts.Prompt.from_function":                        PrefectFastMCP,
	"fastmcp.prompts.prompt.Prompt.from_function":                 PrefectFastMCP,
	"fastmcp.resources.Resource.from_function":                    PrefectFastMCP,
	"fastmcp.resources.ResourceTemplate.from_function":            PrefectFastMCP,
}

// decoratorKinds are the registration methods on high-level servers.
var decoratorKinds = map[string]bool{
	"tool": true, "resource": true, "prompt": true, "completion": true,
	"ui": true, // FastMCPApp entry-point tools (@app.ui())
}

// lowLevelKinds are the registration decorators of the low-level Server.
var lowLevelKinds = map[string]bool{
	"call_tool": true, "read_resource": true, "get_prompt": true, "list_tools": true,
	"list_resources": true, "list_prompts": true, "list_resource_templates": true,
	"completion": true, "set_logging_level": true, "subscribe_resource": true,
	"unsubscribe_resource": true,
}

// addMethods are server methods that take a handler function or component.
var addMethods = map[string]string{
	"add_tool": "tool", "add_resource": "resource", "add_prompt": "prompt",
	"add_resource_fn": "resource", "add_template": "resource template",
}

// serverOf returns the framework of the server an expression refers to, and
// its qualified name, following assignments, imports, factories, attributes
// of self and annotated parameters.
func (b *builder) serverOf(m *pyast.Module, expr *pyast.Node) (Framework, string) {
	return b.serverOfDepth(m, expr, 0)
}

func (b *builder) serverOfDepth(m *pyast.Module, expr *pyast.Node, depth int) (Framework, string) {
	expr = pyast.Unparen(expr)
	if expr == nil || depth > 6 {
		return FrameworkUnknown, ""
	}
	if expr.Kind() == "call" { // register(FastMCP("x")), make_server().tool
		for _, q := range m.Resolve(pyast.Constructor(expr)) {
			if f := b.frameworkOfQual(q, depth); f != FrameworkUnknown {
				return f, ""
			}
		}
		return FrameworkUnknown, ""
	}
	s := m.ScopeAt(expr)
	qs := m.ResolveIn(s, expr)
	name := ""
	if len(qs) > 0 {
		name = qs[0]
	}
	if f := b.frameworkOfTypes(m.TypesOf(expr), depth); f != FrameworkUnknown {
		return f, name
	}
	// Parameters without annotation: infer from the arguments at call sites.
	if expr.Kind() == "identifier" {
		if f := b.paramServer(m, expr, depth); f != FrameworkUnknown {
			return f, name
		}
	}
	// An imported or aliased name: look at the definition in its module
	// (a local value names none: locals.go).
	if b.locals != nil && b.localOnly(m, s, expr) {
		return FrameworkUnknown, name
	}
	for _, q := range qs {
		if f := b.frameworkOfQual(q, depth); f != FrameworkUnknown {
			return f, q
		}
	}
	return FrameworkUnknown, name
}

// frameworkOfTypes maps constructor / factory / annotation names to a framework.
func (b *builder) frameworkOfTypes(types []string, depth int) Framework {
	for _, t := range types {
		if f, ok := serverClasses[t]; ok {
			return f
		}
		if f := b.frameworkOfQual(t, depth); f != FrameworkUnknown {
			return f
		}
	}
	return FrameworkUnknown
}

// frameworkOfQual looks a qualified name up in the project: a server
// subclass, a factory function returning a server, or a variable holding one.
func (b *builder) frameworkOfQual(q string, depth int) Framework {
	if depth > 6 {
		return FrameworkUnknown
	}
	if f, ok := serverClasses[q]; ok {
		return f
	}
	if f := b.factoryFramework(q, depth); f != FrameworkUnknown {
		return f
	}
	sym := b.lookup(q)
	switch {
	case sym.class != nil:
		for _, base := range sym.class.Bases {
			for _, bq := range sym.module.Resolve(base) {
				if f := b.frameworkOfQual(bq, depth+1); f != FrameworkUnknown {
					return f
				}
			}
		}
	case sym.fn != nil:
		return b.factoryServer(sym.module, sym.fn, depth+1)
	case len(sym.bindings) > 0:
		for _, bd := range sym.bindings {
			if f := b.frameworkOfTypes(bd.Types(), depth+1); f != FrameworkUnknown {
				return f
			}
			for _, t := range bd.Targets() {
				if t != q {
					if f := b.frameworkOfQual(t, depth+1); f != FrameworkUnknown {
						return f
					}
				}
			}
		}
	}
	return FrameworkUnknown
}

// factoryServer tells whether a function returns a server.
func (b *builder) factoryServer(m *pyast.Module, fn *pyast.Function, depth int) Framework {
	for _, q := range m.Resolve(pyast.ReturnAnnotation(fn)) {
		if f := b.frameworkOfQual(q, depth+1); f != FrameworkUnknown {
			return f
		}
	}
	for _, v := range pyast.Returns(fn) {
		switch v.Kind() {
		case "call":
			for _, q := range m.Resolve(pyast.Callee(v)) {
				if f := b.frameworkOfQual(q, depth+1); f != FrameworkUnknown {
					return f
				}
			}
		case "identifier", "attribute":
			if f, _ := b.serverOfDepth(m, v, depth+1); f != FrameworkUnknown {
				return f
			}
		}
	}
	return FrameworkUnknown
}

// paramServer infers the server type of an unannotated parameter from the
// arguments passed to it at the function's call sites in the project.
func (b *builder) paramServer(m *pyast.Module, id *pyast.Node, depth int) Framework {
	fn := m.FuncAt(id)
	if fn == nil {
		return FrameworkUnknown
	}
	name := m.Text(id)
	idx := -1
	for i, p := range fn.Params {
		if p.Name == name {
			idx = i
		}
	}
	if idx < 0 || len(fn.Scope.Local(name)) != 1 {
		return FrameworkUnknown
	}
	if fn.Class != nil {
		idx-- // self is not passed
	}
	for site := range b.callSitesOf(fn) {
		pos, kw := site.module.Args(site.call)
		var arg *pyast.Node
		if a := kw[name]; a != nil {
			arg = a
		} else if idx >= 0 && idx < len(pos) {
			arg = pos[idx]
		}
		if arg == nil {
			continue
		}
		if f, _ := b.serverOfDepth(site.module, arg, depth+1); f != FrameworkUnknown {
			return f
		}
	}
	return FrameworkUnknown
}

// decoratorKind returns the registration kind named by the last attribute of
// a decorator or registration call ("tool" in mcp.tool()).
func lastAttr(m *pyast.Module, n *pyast.Node) (obj *pyast.Node, attr string) {
	n = pyast.Unparen(n)
	if n == nil || n.Kind() != "attribute" {
		return nil, ""
	}
	return n.ChildByFieldName("object"), m.Text(n.ChildByFieldName("attribute"))
}

func isTemplateURI(m *pyast.Module, call *pyast.Node) bool {
	pos, kw := m.Args(call)
	uri := kw["uri"]
	if uri == nil {
		uri = kw["uri_template"]
	}
	if uri == nil {
		for _, a := range pos { // Resource.from_function(fn, "uri://{x}")
			if a.Kind() == "string" || a.Kind() == "concatenated_string" {
				uri = a
				break
			}
		}
	}
	return uri != nil && strings.Contains(m.Text(uri), "{")
}
