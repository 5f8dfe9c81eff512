package rules

import (
	"strings"
	"testing"
)

func TestMCP102Detection(t *testing.T) {
	files := map[string]string{
		"server.py": `import anyio
from anyio import CancelScope, move_on_after as moa
from mcp.server.fastmcp import FastMCP
from helpers import save, save_covered

mcp = FastMCP("demo")

@mcp.tool()
async def direct() -> str:
    with anyio.CancelScope(shield=True):  # want: MCP102
        await db.write()
    return "ok"

@mcp.tool()
async def covered() -> str:
    with CancelScope(shield=True):
        await db.write()
    await anyio.sleep(0)
    return "ok"

@mcp.tool()
async def aliases() -> str:
    with moa(5, shield=True):  # want: MCP102
        await db.write()
    scope = anyio.fail_after(3, shield=True)
    with scope:  # want: MCP102
        await db.write()
    with anyio.CancelScope() as s:  # want: MCP102
        s.shield = True
        await db.write()
    later = anyio.CancelScope()
    later.shield = True
    with later:  # want: MCP102
        await db.write()
    unshielded = anyio.CancelScope()
    with unshielded:
        await db.write()
    return "ok"

@mcp.tool()
async def cleanup() -> str:
    try:
        await db.write()
    except BaseException:
        with anyio.CancelScope(shield=True):
            await db.rollback()
        raise
    finally:
        with anyio.CancelScope(shield=True):
            await db.close()
    return "ok"

@mcp.tool()
async def returns_inside() -> str:
    with anyio.CancelScope(shield=True):  # want: MCP102
        return await db.write()

@mcp.tool()
async def via_helper() -> str:
    await save()
    return "ok"

@mcp.tool()
async def via_helper_checkpointed() -> str:
    await save_covered()
    await anyio.lowlevel.checkpoint()
    return "ok"
`,
		"helpers.py": `import anyio

async def save():
    with anyio.CancelScope(shield=True):  # want: MCP102
        await db.write()

async def save_covered():
    with anyio.CancelScope(shield=True):
        await db.write()
`,
	}
	checkProjectWants(t, "MCP102", files, projectRun(t, mcp102, files))
}

func TestMCP102Fix(t *testing.T) {
	src := "\"\"\"Doc.\"\"\"\r\nfrom __future__ import annotations\r\nfrom anyio import CancelScope\r\nfrom mcp.server.fastmcp import FastMCP\r\n\r\nmcp = FastMCP()\r\n\r\n@mcp.tool()\r\nasync def t() -> str:\r\n    with CancelScope(shield=True):\r\n        await db.write()  # done\r\n    return \"ok\"\r\n"
	want := "\"\"\"Doc.\"\"\"\r\nfrom __future__ import annotations\r\nimport anyio\r\nfrom anyio import CancelScope\r\nfrom mcp.server.fastmcp import FastMCP\r\n\r\nmcp = FastMCP()\r\n\r\n@mcp.tool()\r\nasync def t() -> str:\r\n    with CancelScope(shield=True):\r\n        await db.write()  # done\r\n    await anyio.lowlevel.checkpoint_if_cancelled()\r\n    return \"ok\"\r\n"
	diags := projectRun(t, mcp102, map[string]string{"s.py": src})
	if len(diags) != 1 || len(diags[0].Fixes) != 1 || diags[0].Fixes[0].Applicability != Safe {
		t.Fatalf("got %+v", diags)
	}
	got := applyFix(t, src, diags[0].Fixes[0])
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if again := projectRun(t, mcp102, map[string]string{"s.py": got}); len(again) != 0 {
		t.Errorf("finding not gone: %s", again[0].Message)
	}
	if strings.Count(got, "import anyio") != 1 {
		t.Errorf("import added twice")
	}
}
