package benchtree

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcplint/mcplint/engine"
)

// TestGeneratedToolsAreLiveHandlers checks that what bench/ measures is the
// handler analysis: every generated tool is a live handler (its module is
// imported from the project's entry point) and every offload it awaits with
// no checkpoint after it is an MCP101 finding, and no other. Until the entry point imported the tool modules, mcplint
// rightly found no handler in these trees and the benchmarks skipped the
// analysis.
func TestGeneratedToolsAreLiveHandlers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj")
	const modules = 120 // two packages
	Project(dir, "big", modules, 2<<10)

	// What the generator wrote, counted in the text.
	var tools, offloads, unsafe int
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".py" {
			return err
		}
		src, err := os.ReadFile(p)
		tools += bytes.Count(src, []byte("@mcp.tool()\n"))
		offload := []byte("await anyio.to_thread.run_sync(")
		offloads += bytes.Count(src, offload)
		for rest := src; bytes.Contains(rest, offload); {
			rest = rest[bytes.Index(rest, offload):]
			rest = rest[bytes.IndexByte(rest, '\n')+1:]
			if !bytes.HasPrefix(bytes.TrimSpace(rest), []byte("await anyio.lowlevel.checkpoint_if_cancelled()")) {
				unsafe++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if tools < modules || offloads < modules || unsafe == 0 || unsafe == offloads {
		t.Fatalf("generated %d tools and %d offloads (%d unsafe) in %d modules, want at least one tool and offload per module, some unsafe, not all", tools, offloads, unsafe, modules)
	}

	res, err := engine.Run([]string{dir}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Projects) != 1 {
		t.Fatalf("%d projects, want 1", len(res.Projects))
	}
	handlers := 0
	for _, h := range res.Projects[0].Handlers {
		if h.Kind == "tool" {
			handlers++
		}
	}
	mcp101 := 0
	for _, d := range res.Diagnostics {
		if d.Code == "MCP101" {
			mcp101++
		}
	}
	if handlers != tools || mcp101 != unsafe {
		t.Errorf("mcplint found %d tool handlers and %d MCP101 findings; the generator wrote %d tools and %d offloads with no checkpoint after them", handlers, mcp101, tools, unsafe)
	}
}
