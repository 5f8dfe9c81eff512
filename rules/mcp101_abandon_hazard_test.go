package rules

import (
	"strings"
	"testing"
)

// The abandon fix is never offered where a lock, semaphore or limiter is
// held, or with limiter=; the finding says why instead.
func TestMCP101NoAbandonUnderALock(t *testing.T) {
	src := `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")
lock = anyio.Lock()
lim = anyio.CapacityLimiter(2)

@mcp.tool()
async def a() -> int:
    async with lock:
        return await anyio.to_thread.run_sync(f)  # want: MCP101

@mcp.tool()
async def b() -> int:
    return await anyio.to_thread.run_sync(f, limiter=lim)  # want: MCP101

@mcp.tool()
async def c() -> int:
    async with anyio.Semaphore(1):
        return await anyio.to_thread.run_sync(f)  # want: MCP101

@mcp.tool()
async def d() -> int:
    with open("x") as fh:
        return await anyio.to_thread.run_sync(f)  # want: MCP101
`
	diags := projectRun(t, mcp101, map[string]string{"server.py": src})
	checkProjectWants(t, "MCP101", map[string]string{"server.py": src}, diags)
	want := map[int]string{11: "inside `with lock` (a lock)", 15: "passes limiter=", 20: "inside `with anyio.Semaphore(1)` (a semaphore)"}
	for _, d := range diags {
		var abandon, advice, checkpoint bool
		for _, f := range d.Fixes {
			switch {
			case f.Applicability == Unsafe && strings.Contains(f.Message, "abandon_on_cancel=True"):
				abandon = true
			case f.Applicability == DisplayOnly && strings.Contains(f.Message, "is not offered"):
				advice = strings.Contains(f.Message, want[d.Start.Line])
			case f.Applicability == Safe:
				checkpoint = true
			}
		}
		if !checkpoint {
			t.Errorf("line %d: no checkpoint fix", d.Start.Line)
		}
		if w, held := want[d.Start.Line]; held {
			if abandon || !advice {
				t.Errorf("line %d: abandon fix offered %v, advice naming %q %v: %+v", d.Start.Line, abandon, w, advice, d.Fixes)
			}
		} else if !abandon {
			t.Errorf("line %d: no abandon fix outside a lock", d.Start.Line)
		}
	}
}
