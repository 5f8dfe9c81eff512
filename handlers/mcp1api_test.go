package handlers

import (
	"fmt"
	"slices"
	"testing"
)

// TestMCP1APIs checks which uses of APIs that mcp 2 removed are found, and
// which of them the server needs (Serves): only those tie a project to mcp
// 1.x. It asks the Index (what the engine and the dependency rules ask),
// which must answer as MCP1APIs does, and find the answer once.
func TestMCP1APIs(t *testing.T) {
	fastmcpServer := "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n@mcp.tool()\nasync def t() -> str:\n    return 'x'\n"
	mcp2Server := "from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('x')\n\n@mcp.tool()\nasync def t() -> str:\n    return 'x'\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // "What@path:line serves|not"
	}{
		{"official FastMCP server", map[string]string{"server.py": fastmcpServer},
			[]string{"mcp.server.fastmcp@server.py:1 serves"}},
		{"mcp.server.FastMCP", map[string]string{"server.py": "from mcp.server import FastMCP\nmcp = FastMCP('x')\n"},
			[]string{"mcp.server.FastMCP@server.py:1 serves"}},
		{"a 2.x server", map[string]string{"server.py": mcp2Server}, nil},
		{"McpError in a module a handler reaches", map[string]string{
			"server.py": "from mcp.server.mcpserver import MCPServer\nfrom errors import wrap\n\nmcp = MCPServer('x')\n\n@mcp.tool()\nasync def t() -> str:\n    return wrap()\n",
			"errors.py": "from mcp.shared.exceptions import McpError\n\ndef wrap():\n    return 'x'\n",
		}, []string{"McpError@errors.py:1 serves"}},
		{"low-level decorators", map[string]string{
			"server.py": "from mcp.server.lowlevel import Server\n\nserver = Server('x')\n\n@server.call_tool()\nasync def call(name, args):\n    return []\n\n@server.list_tools()\nasync def tools():\n    return []\n",
		}, []string{"the 1.x low-level decorator @server.call_tool()@server.py:5 serves", "the 1.x low-level decorator @server.list_tools()@server.py:9 serves"}},
		{"a 2.x low-level server", map[string]string{
			"server.py": "from mcp.server.lowlevel import Server\n\nasync def call(ctx, params):\n    return None\n\nserver = Server('x', on_call_tool=call)\n",
		}, nil},
		{"in a test module", map[string]string{"server.py": mcp2Server, "tests/test_server.py": fastmcpServer},
			[]string{"mcp.server.fastmcp@tests/test_server.py:1 not"}},
		{"in a client the server never loads", map[string]string{"server.py": mcp2Server,
			"client.py": "from mcp import ClientSession, McpError\n\nasync def main():\n    pass\n"},
			[]string{"McpError@client.py:1 not"}},
		{"fallback in an except ImportError", map[string]string{
			"server.py": "try:\n    from mcp.server.mcpserver import MCPServer\nexcept ImportError:\n    from mcp.server.fastmcp import FastMCP as MCPServer\n\nmcp = MCPServer('x')\n\n@mcp.tool()\nasync def t() -> str:\n    return 'x'\n",
		}, []string{"mcp.server.fastmcp@server.py:4 not"}},
		{"tried first, 2.x as the fallback", map[string]string{
			"server.py": "try:\n    from mcp.server.fastmcp import FastMCP\nexcept (ModuleNotFoundError, AttributeError):\n    from mcp.server.mcpserver import MCPServer as FastMCP\n\nmcp = FastMCP('x')\n",
		}, []string{"mcp.server.fastmcp@server.py:2 not"}},
		{"a try whose handler does not catch ImportError", map[string]string{
			"server.py": "try:\n    from mcp.server.fastmcp import FastMCP\nexcept KeyError:\n    raise\n\nmcp = FastMCP('x')\n",
		}, []string{"mcp.server.fastmcp@server.py:2 serves"}},
		{"in the else of a try", map[string]string{
			"server.py": "try:\n    import json\nexcept ImportError:\n    json = None\nelse:\n    from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n",
		}, []string{"mcp.server.fastmcp@server.py:6 serves"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mods := parseProject(t, tc.files)
			ix := Build(mods, Config{})
			uses := ix.MCP1APIs()
			if !slices.Equal(uses, MCP1APIs(mods, ix)) {
				t.Errorf("Index.MCP1APIs %v, MCP1APIs %v", uses, MCP1APIs(mods, ix))
			}
			if again := ix.MCP1APIs(); len(uses) > 0 && &again[0] != &uses[0] {
				t.Errorf("Index.MCP1APIs found the uses again")
			}
			var got []string
			for _, u := range uses {
				s := "not"
				if u.Serves {
					s = "serves"
				}
				got = append(got, fmt.Sprintf("%s@%s:%d %s", u.What, u.Module.Path, u.Module.Pos(int(u.Node.StartByte())).Line, s))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestMCP1APIPhrase(t *testing.T) {
	for what, want := range map[string]string{
		"mcp.server.fastmcp": "imports mcp.server.fastmcp",
		"McpError":           "imports McpError",
		"the 1.x low-level decorator @server.call_tool()": "registers a handler with the 1.x low-level decorator @server.call_tool()",
	} {
		if got := (MCP1API{What: what}).Phrase(); got != want {
			t.Errorf("Phrase(%q) = %q, want %q", what, got, want)
		}
	}
}
