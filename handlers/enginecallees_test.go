package handlers

import "testing"

// TestEngineCallees checks that the handlers' reach follows calls the
// per-shape resolvers do not resolve and the value-flow engine does: a
// method called on an attribute set in __init__ from a constructor
// parameter, on an object taken out of a dict a function returns, and a
// function taken by getattr with names iterated from a constant list.
func TestEngineCallees(t *testing.T) {
	ix := build(t, map[string]string{
		"client.py": `
class Client:
    async def command_async(self): pass
class Ops:
    def read_file(self): pass
def get_components():
    return {"operations": Ops()}
`,
		"tools.py": `
def alpha(): pass
def beta(): pass
def never(): pass
`,
		"server.py": `
from mcp.server.fastmcp import FastMCP
from client import Client, get_components
import tools
mcp = FastMCP("x")
class Service:
    def __init__(self, client):
        self.client = client
    async def run(self):
        await self.client.command_async()
svc = Service(Client())
@mcp.tool()
async def status():
    await svc.run()
    get_components()["operations"].read_file()
    for name in ["alpha", "beta"]:
        getattr(tools, name)()
`,
	}, Config{})
	for _, q := range []string{"client.Client.command_async", "client.Ops.read_file", "tools.alpha", "tools.beta"} {
		r, ok := ix.Function(q)
		if !ok {
			t.Fatalf("no function %s", q)
		}
		if !ix.Reachable(r.Func) {
			t.Errorf("%s is not reached from the tool", q)
		}
	}
	if r, _ := ix.Function("tools.never"); ix.Reachable(r.Func) {
		t.Error("tools.never is reached")
	}
}
