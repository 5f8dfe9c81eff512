package engine

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/internal/testfs"
)

// No finding's message quotes more than an excerpt of a file, whatever the
// file holds: a requirement with a huge marker, a shielded scope or a
// worker call whose code runs on, an invalid requirement.
func TestMessagesQuoteAnExcerpt(t *testing.T) {
	long := strings.Repeat("x", 50000)
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0 ; python_version >= \"3.8\" or extra == \"" + long + "\"\n!!" + long + "\n",
		"server.py": `from mcp.server.fastmcp import FastMCP
import anyio
mcp = FastMCP("x")

def work(): return 1

@mcp.tool()
async def shielded():
    with anyio.CancelScope(shield=True if "` + long + `" else False):
        await anyio.sleep(1)
    return 1

@mcp.tool()
async def held():
    async with anyio.Lock() if "` + long + `" else None:
        return await anyio.to_thread.run_sync(work)
`,
	})
	res := run(t, []string{root}, Options{})
	if len(res.Diagnostics) < 3 {
		t.Fatalf("only %d findings: %q", len(res.Diagnostics), codes(root, res))
	}
	for _, d := range res.Diagnostics {
		msgs := []string{d.Message}
		for _, r := range d.Related {
			msgs = append(msgs, r.Message)
		}
		for _, f := range d.Fixes {
			msgs = append(msgs, f.Message)
		}
		for _, m := range msgs {
			if n := utf8.RuneCountInString(m); n > 1000 {
				t.Errorf("%s: a message of %d characters: %.150s...", d.Code, n, m)
			}
		}
	}
}
