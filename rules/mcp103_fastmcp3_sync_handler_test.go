package rules

import (
	"strings"
	"testing"
)

func TestMCP103Detection(t *testing.T) {
	files := map[string]string{
		"server.py": `from fastmcp import FastMCP
from fastmcp.tools import tool
from mcp.server.fastmcp import FastMCP as Official
from tools import heavy, light

mcp = FastMCP("demo")
official = Official("other")

@mcp.tool
def bare(a: int) -> int:  # want: MCP103
    return a

@mcp.tool()
def called(a: int) -> int:  # want: MCP103
    return a

@mcp.resource("data://{id}")
def template(id: str) -> str:
    """A template with no injected parameter runs inline on fastmcp 3."""
    return id

@mcp.resource("data://static")
def static_resource() -> str:  # want: MCP103
    return "x"

@mcp.prompt(name="p")
def prompt() -> str:  # want: MCP103
    return "x"

@tool
def standalone() -> str:  # want: MCP103
    return "x"

@mcp.tool(run_in_thread=False)
def inline() -> str:
    return "x"

@mcp.tool
async def asynchronous() -> str:
    return "x"

@official.tool()
def official_tool() -> str:
    return "x"

async def _work(a):
    return a

@mcp.tool
def returns_coro(a: int):
    """Only builds the coroutine."""
    return _work(a)

mcp.tool(heavy, name="heavy")
mcp.tool(name="light")(light)
`,
		"tools.py": `def heavy(x: int) -> int:  # want: MCP103
    return x

def light() -> None:  # want: MCP103
    pass
`,
	}
	checkProjectWants(t, "MCP103", files, projectRun(t, mcp103, files))
}

func TestMCP103Fixes(t *testing.T) {
	src := "\"\"\"Server.\"\"\"\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n\n@mcp.tool\ndef add(a: int, *rest: int, b: int = 2, **kw) -> int:\n    \"\"\"Add.\n\n    Long doc.\n    \"\"\"\n    text = \"\"\"multi\nline\"\"\"\n    a = a + b  # rebinds a parameter\n\n    return a + len(text) + slow()\n"
	diags := projectRun(t, mcp103, map[string]string{"server.py": src})
	if len(diags) != 1 || len(diags[0].Fixes) != 2 {
		t.Fatalf("got %d findings %+v", len(diags), diags)
	}
	got := applyFix(t, src, diags[0].Fixes[0])
	want := "\"\"\"Server.\"\"\"\nimport anyio\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n\n@mcp.tool\nasync def add(a: int, *rest: int, b: int = 2, **kw) -> int:\n    \"\"\"Add.\n\n    Long doc.\n    \"\"\"\n    def _add_sync(a, rest, b, kw):\n        text = \"\"\"multi\nline\"\"\"\n        a = a + b  # rebinds a parameter\n\n        return a + len(text) + slow()\n    return await anyio.to_thread.run_sync(\n        _add_sync, a, rest, b, kw, abandon_on_cancel=True\n    )\n"
	if got != want {
		t.Errorf("fix 1:\n%s\nwant:\n%s", got, want)
	}
	if again := projectRun(t, mcp103, map[string]string{"server.py": got}); len(again) != 0 {
		t.Errorf("finding not gone after fix 1")
	}
	got = applyFix(t, src, diags[0].Fixes[1])
	if want := strings.Replace(src, "@mcp.tool\n", "@mcp.tool(run_in_thread=False)\n", 1); got != want {
		t.Errorf("fix 2:\n%s\nwant:\n%s", got, want)
	}
	if again := projectRun(t, mcp103, map[string]string{"server.py": got}); len(again) != 0 {
		t.Errorf("finding not gone after fix 2")
	}

	// call forms get the keyword in the registration call; timeout= gets none
	calls := map[string]string{
		"mcp.tool(f, name=\"x\")\n":    "mcp.tool(f, name=\"x\", run_in_thread=False)\n",
		"mcp.tool()(f)\n":              "mcp.tool(run_in_thread=False)(f)\n",
		"mcp.tool(f, timeout=3.0)\n":   "",
		"mcp.add_tool(f)\n":            "",
		"mcp.prompt(name=\"p\",)(f)\n": "mcp.prompt(name=\"p\", run_in_thread=False,)(f)\n",
	}
	for reg, want := range calls {
		src := "from fastmcp import FastMCP\nmcp = FastMCP()\ndef f():\n    pass\n" + reg
		diags := projectRun(t, mcp103, map[string]string{"s.py": src})
		if len(diags) != 1 {
			t.Fatalf("%s: %d findings", reg, len(diags))
		}
		var fix *Fix
		for i := range diags[0].Fixes {
			if strings.Contains(diags[0].Fixes[i].Message, "run_in_thread") {
				fix = &diags[0].Fixes[i]
			}
		}
		switch {
		case want == "" && fix != nil:
			t.Errorf("%s: unexpected fix %+v", reg, fix)
		case want != "" && fix == nil:
			t.Errorf("%s: no run_in_thread fix", reg)
		case want != "":
			if got := applyFix(t, src, *fix); !strings.HasSuffix(got, want) {
				t.Errorf("%s: got\n%s", reg, got)
			}
		}
	}
}
