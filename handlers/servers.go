package handlers

import (
	"sort"
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
	// fastapi_mcp (tadata) builds an official low-level Server of a
	// FastAPI app's routes; its handlers are the library's own.
	"fastapi_mcp.FastApiMCP":        OfficialLowLevel,
	"fastapi_mcp.server.FastApiMCP": OfficialLowLevel,
	"fastmcp.FastMCP":               PrefectFastMCP,
	"fastmcp.server.FastMCP":        PrefectFastMCP,
	"fastmcp.server.server.FastMCP": PrefectFastMCP,
	"fastmcp.server.FastMCPServer":  PrefectFastMCP,
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

// ServerPackages returns the top-level packages of the server classes
// (mcp, fastmcp, ...), sorted: a module that imports none of them, and
// none of the modules it is connected to by imports, creates no server.
func ServerPackages() []string {
	seen := map[string]bool{}
	var out []string
	for q := range serverClasses {
		top, _, _ := strings.Cut(q, ".")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	sort.Strings(out)
	return out
}

// serverFactories are the class methods of PrefectHQ fastmcp's FastMCP that
// build a server of their class: mcp = FastMCP.from_openapi(spec, client),
// FastMCP.from_fastapi(app), FastMCP.as_proxy(backend) (fastmcp 2.x).
var serverFactories = map[string]bool{"from_openapi": true, "from_fastapi": true, "as_proxy": true}

// serverFunctions are fastmcp functions that return a server (fastmcp 3's
// replacement of FastMCP.as_proxy).
var serverFunctions = map[string]Framework{"fastmcp.server.create_proxy": PrefectFastMCP}

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

// fromFunction reports the framework of a constructor that wraps a handler
// function into a component, by its qualified name: from_function of a
// component class (Tool, FunctionTool, Prompt, FunctionPrompt, Resource,
// FunctionResource, ResourceTemplate) imported from any module of PrefectHQ
// fastmcp (fastmcp.tools, fastmcp.tools.base, fastmcp.tools.tool, ...), of
// the official SDK's FastMCP (mcp.server.fastmcp...) or of its MCPServer
// (mcp.server.mcpserver...). The class is told by name, where it is
// re-exported from: the package's own layout moves between releases.
func fromFunction(q string) (Framework, bool) {
	rest, ok := strings.CutSuffix(q, ".from_function")
	if !ok {
		return FrameworkUnknown, false
	}
	cls := rest[strings.LastIndexByte(rest, '.')+1:]
	if !componentClasses[cls] {
		return FrameworkUnknown, false
	}
	for i, fw := range []Framework{PrefectFastMCP, OfficialFastMCP, OfficialMCPServer} {
		if strings.HasPrefix(rest, componentRoots[i]+".") {
			return fw, true
		}
	}
	return FrameworkUnknown, false
}

// componentRoots are the packages fromFunction takes component classes from.
var componentRoots = []string{"fastmcp", "mcp.server.fastmcp", "mcp.server.mcpserver"}

// componentPrefix reports whether a component constructor fromFunction
// accepts can be q or under q: q is a root's package or a module under it,
// or a package above a root (mcp, mcp.server).
func componentPrefix(q string) bool {
	for _, r := range componentRoots {
		if q == r || strings.HasPrefix(q, r+".") || strings.HasPrefix(r, q+".") {
			return true
		}
	}
	return false
}

// componentClasses are the classes whose from_function makes a component.
var componentClasses = map[string]bool{
	"Tool": true, "FunctionTool": true, "Prompt": true, "FunctionPrompt": true,
	"Resource": true, "FunctionResource": true, "ResourceTemplate": true,
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

// serverOf returns the framework of the server an expression refers to,
// as the value-flow engine evaluates it (engineservers.go), and the
// qualified name the expression spells (none for a call).
func (b *builder) serverOf(m *pyast.Module, expr *pyast.Node) (Framework, string) {
	expr = pyast.Unparen(expr)
	if expr == nil {
		return FrameworkUnknown, ""
	}
	f := b.engineServerOf(m, expr)
	if f == FrameworkUnknown || expr.Kind() == "call" {
		return f, ""
	}
	name := ""
	if qs := m.ResolveIn(m.ScopeAt(expr), expr); len(qs) > 0 {
		name = qs[0]
	}
	return f, name
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

// isTemplateURI reports whether a resource registration's URI (uri=,
// uri_template= or its first string argument) has {params}: a resource
// template.
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
	if uri == nil {
		return false
	}
	// An f-string's {name} is filled in when the call runs: only the
	// braces outside its interpolations ({{id}}, written doubled) are the
	// template's (f"check://enums/{name}" is a static URI).
	text, from := m.Text(uri), uri.StartByte()
	var b strings.Builder
	at := uint(0)
	pyast.Walk(uri, func(n *pyast.Node) bool {
		if n.Kind() != "interpolation" {
			return true
		}
		b.WriteString(text[at : n.StartByte()-from])
		at = n.EndByte() - from
		return false
	})
	b.WriteString(text[at:])
	return strings.Contains(b.String(), "{")
}
