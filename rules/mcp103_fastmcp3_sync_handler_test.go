package rules

import (
	"sort"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// projectRun parses files (slash path -> source) as one project, builds its
// handler index and runs rule r on it with no dependency information. The
// fixture tests under testdata/rules cover dependency files.
func projectRun(t *testing.T, r *Rule, files map[string]string) []Diagnostic {
	t.Helper()
	var mods []*pyast.Module
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		name := strings.TrimSuffix(strings.TrimSuffix(path, ".py"), "/__init__")
		m, err := pyast.Parse(path, strings.ReplaceAll(name, "/", "."), []byte(files[path]))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		mods = append(mods, m)
	}
	var out []Diagnostic
	p := NewPass(r, ".", nil, mods, handlers.Build(mods, handlers.Config{}), func(d Diagnostic) { out = append(out, d) })
	r.Run(p)
	return out
}

// checkProjectWants compares findings with the want comments of every file.
func checkProjectWants(t *testing.T, code string, files map[string]string, diags []Diagnostic) {
	t.Helper()
	for path, src := range files {
		var mine []Diagnostic
		for _, d := range diags {
			if d.Path == path {
				mine = append(mine, d)
			}
		}
		t.Run(path, func(t *testing.T) { checkWants(t, src, code, mine) })
	}
}

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
def template(id: str) -> str:  # want: MCP103
    return id

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
	src := "\"\"\"Server.\"\"\"\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n\n@mcp.tool\ndef add(a: int, *rest: int, b: int = 2, **kw) -> int:\n    \"\"\"Add.\n\n    Long doc.\n    \"\"\"\n    text = \"\"\"multi\nline\"\"\"\n    a = a + b  # rebinds a parameter\n\n    return a + len(text)\n"
	diags := projectRun(t, mcp103, map[string]string{"server.py": src})
	if len(diags) != 1 || len(diags[0].Fixes) != 2 {
		t.Fatalf("got %d findings %+v", len(diags), diags)
	}
	got := applyFix(t, src, diags[0].Fixes[0])
	want := "\"\"\"Server.\"\"\"\nimport anyio\nfrom fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n\n@mcp.tool\nasync def add(a: int, *rest: int, b: int = 2, **kw) -> int:\n    \"\"\"Add.\n\n    Long doc.\n    \"\"\"\n    def _add_sync(a, rest, b, kw):\n        text = \"\"\"multi\nline\"\"\"\n        a = a + b  # rebinds a parameter\n\n        return a + len(text)\n    return await anyio.to_thread.run_sync(_add_sync, a, rest, b, kw, abandon_on_cancel=True)\n"
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
