package handlers

import "testing"

func TestServerConstruction(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string // "" for none
	}{
		{"FastMCP constructed", map[string]string{"s.py": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"}, "constructs mcp FastMCP"},
		{"low-level Server through an alias", map[string]string{"s.py": "from mcp.server.lowlevel import Server as S\napp = S('x')\n"}, "constructs mcp low-level Server"},
		{"fastmcp in a factory", map[string]string{"s.py": "import fastmcp\ndef make():\n    return fastmcp.FastMCP('x')\n"}, "constructs fastmcp"},
		{"project subclass constructed elsewhere", map[string]string{
			"base.py": "from mcp.server.fastmcp import FastMCP\nclass My(FastMCP):\n    pass\n",
			"run.py":  "from base import My\nMy('x')\n"}, "subclasses mcp FastMCP"},
		{"library takes its users' server", map[string]string{"lib.py": "from fastmcp import FastMCP\ndef register(mcp: FastMCP) -> None:\n    pass\n"}, "takes a fastmcp parameter"},
		{"client only", map[string]string{"c.py": "from mcp import ClientSession, StdioServerParameters\nfrom mcp.client.stdio import stdio_client\nparams = StdioServerParameters(command='python', args=['server.py'])\nasync def main():\n    async with stdio_client(params) as (r, w):\n        async with ClientSession(r, w) as s:\n            await s.call_tool('x', {})\n"}, ""},
		{"langchain adapters client", map[string]string{"a.py": "from langchain_mcp_adapters.client import MultiServerMCPClient\nclient = MultiServerMCPClient({})\n"}, ""},
		{"a local class named FastMCP", map[string]string{"x.py": "class FastMCP:\n    pass\nFastMCP()\n"}, ""},
		{"fastmcp factory class method", map[string]string{"s.py": "from fastmcp import FastMCP\nmcp = FastMCP.from_openapi(openapi_spec={}, client=None)\n"}, "constructs fastmcp"},
		{"fastmcp proxy function", map[string]string{"s.py": "from fastmcp.server import create_proxy\nproxy = create_proxy('http://x/mcp')\n"}, "constructs fastmcp"},
		{"a from_openapi of a class that is not a server", map[string]string{"x.py": "class Spec:\n    @classmethod\n    def from_openapi(cls, d):\n        return cls()\nSpec.from_openapi({})\n"}, ""},
		{"a from_openapi of the official SDK's FastMCP", map[string]string{"x.py": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP.from_openapi({})\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			site, ok := build(t, c.files, Config{}).ServerConstruction()
			switch {
			case c.want == "" && ok:
				t.Errorf("found %s at %s:%d", site.What, site.Module.Path, site.Module.Pos(int(site.Node.StartByte())).Line)
			case c.want != "" && (!ok || site.What != c.want):
				t.Errorf("got %q %v, want %q", site.What, ok, c.want)
			}
		})
	}
	var nilIndex *Index
	if _, ok := nilIndex.ServerConstruction(); ok {
		t.Error("nil index")
	}
}
