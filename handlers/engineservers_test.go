package handlers

import (
	"reflect"
	"testing"
)

// TestEngineServers checks the shapes of server objects and registrations
// that the value-flow engine finds and the per-shape resolvers did not,
// and look-alikes that are not MCP servers.
func TestEngineServers(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"server class imported in a class body, built as self.Server()", map[string]string{"app.py": `
class App:
    from fastmcp import FastMCP as Server
    def __init__(self):
        self.mcp = self.Server("x")
        self.mcp.tool()(self.status)
    async def status(self): pass
App()
`}, []string{"app.App.status:tool:fastmcp"}},
		{"register(server) through a function-local import alias", map[string]string{
			"pkg/__init__.py": "",
			"pkg/server.py": `
from mcp.server.fastmcp import FastMCP
def create():
    from pkg.prompts.greet import register as register_greet
    mcp = FastMCP("x")
    register_greet(mcp)
    return mcp
`,
			"pkg/prompts/__init__.py": "",
			"pkg/prompts/greet.py": `
def register(server):
    @server.prompt()
    async def greet(): pass
`}, []string{"pkg.prompts.greet.register.greet:prompt:mcp FastMCP"}},
		{"mcp.tool(getattr(module, name)) over a constant list", map[string]string{
			"tools.py": `
async def alpha(): pass
async def beta(): pass
async def unused(): pass
`,
			"server.py": `
from fastmcp import FastMCP
import tools
NAMES = ["alpha", "beta"]
mcp = FastMCP("x")
for name in NAMES:
    mcp.tool(getattr(tools, name), name=name)
`}, []string{"tools.alpha:tool:fastmcp", "tools.beta:tool:fastmcp"}},
		{"a handler object keeps the server from its constructor parameter", map[string]string{"s.py": `
from mcp.server.fastmcp import FastMCP
class Handler:
    def __init__(self, mcp):
        self.mcp = mcp
        self.mcp.tool(name="list")(self.list_things)
    async def list_things(self): pass
server = FastMCP("x")
Handler(server)
`}, []string{"s.Handler.list_things:tool:mcp FastMCP"}},
		{"a prefixing decorator object and a wrapper passed as a parameter", map[string]string{"s.py": `
from typing import Any
from mcp.server.fastmcp import FastMCP
class Prefixed:
    def __init__(self, server: Any):
        self.server = server
    def tool(self, name):
        def decorator(func):
            return self.server.tool(name="p_" + name)(func)
        return decorator
def logged(fn):
    async def inner(*a, **kw):
        return await fn(*a, **kw)
    return inner
async def search(): pass
def register_tools(mcp: FastMCP, log):
    d = Prefixed(mcp)
    d.tool("search")(log(search))
mcp = FastMCP("x")
register_tools(mcp, logged)
`}, []string{"s.search:tool:mcp FastMCP"}},
		{"a closure a function returns, registered in a loop", map[string]string{"s.py": `
from fastmcp import FastMCP
mcp = FastMCP("x")
for pattern in ["a", "b"]:
    def make(resp):
        def prompt_handler():
            return resp
        return prompt_handler
    handler = make(pattern)
    mcp.prompt(pattern)(handler)
`}, []string{"s.make.prompt_handler:prompt:fastmcp"}},
		{"a factory whose returns are opaque, by its return annotation", map[string]string{"s.py": `
import asyncio
from fastmcp import FastMCP
async def build():
    return FastMCP("x")
def create() -> FastMCP:
    return asyncio.run(build())
srv = create()
@srv.tool()
async def status(): pass
`}, []string{"s.status:tool:fastmcp"}},
		// Look-alikes.
		{"a project class named FastMCP is not the SDK's", map[string]string{"s.py": `
class FastMCP:
    def __init__(self, name): pass
    def tool(self):
        return lambda f: f
mcp = FastMCP("x")
@mcp.tool()
async def a(): pass
`}, nil},
		{"@app.tool() on an app that is not an MCP server", map[string]string{"s.py": `
from typer import Typer
app = Typer()
@app.tool()
async def a(): pass
`}, nil},
		{"a registration under if False:", map[string]string{"s.py": `
from fastmcp import FastMCP
mcp = FastMCP("x")
if False:
    @mcp.tool()
    async def a(): pass
def register(m):
    @m.tool()
    async def b(): pass
if False:
    register(mcp)
`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := handlerSet(build(t, c.files, Config{}))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("handlers:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
