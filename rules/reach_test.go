package rules

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
)

// A chain of awaited calls as long as a hostile file can make it (the
// stress table's 70k call chain) is walked without Go's stack growing with
// it: endsRequest keeps its own stack. Run under a 4 MB stack limit, the
// recursive walk it replaces died ("goroutine stack exceeds 4194304-byte
// limit").
func TestEndsRequestLongChainNeedsNoDeepStack(t *testing.T) {
	const n = 30000
	var b strings.Builder
	b.WriteString("import anyio\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n@mcp.tool()\nasync def h():\n    await f0()\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "async def f%d():\n    await f%d()\n\n", i, i+1)
	}
	fmt.Fprintf(&b, "async def f%d():\n    return await anyio.to_thread.run_sync(work)  # want: MCP101\n", n)
	src := b.String()
	old := debug.SetMaxStack(4 << 20)
	defer debug.SetMaxStack(old)
	diags := projectRun(t, mcp101, map[string]string{"server.py": src})
	if len(diags) != 1 || diags[0].Start.Line != 3*n+11 {
		t.Fatalf("want the one MCP101 at the end of the chain (line %d), got %+v", 3*n+11, diags)
	}
}
