package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// A requirement line repeated: past MaxSame, the findings of one kind are
// kept as their place alone, in the run and in the cache, so that memory and
// the cache file grow by a place a line, not by a finding with its fixes
// (200,000 lines took 3.8 GB and wrote a 604 MB cache file, 3 kB a line),
// and a place is written as the varints of its differences from the one
// before (rules.Places; five int32 in gob took 28 bytes, 1.3M lines a 36 MB
// file). The count stays exact.
func TestRepeatedFindingsKeptAsPlaces(t *testing.T) {
	size1000, _ := repeatedRun(t, 1000)
	size2000, res := repeatedRun(t, 2000)
	if per := (size2000 - size1000) / 1000; per > 8 {
		t.Errorf("the cache grows by %d bytes a repeated line (%d bytes for 1,000 lines, %d for 2,000); want at most 8 (a place is five small differences)", per, size1000, size2000)
	}
	full, total, withFixes := 0, 0, 0
	var last *rules.Diagnostic
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if d.Code != "MCP001" {
			continue
		}
		full++
		total += d.Findings()
		if len(d.Fixes) > 0 {
			withFixes++
		}
		last = d
	}
	if full != 50 || total != 2000 || withFixes != 50 {
		t.Fatalf("%d MCP001 findings kept in full (%d with fixes) standing for %d; want 50 (50) for 2000", full, withFixes, total)
	}
	if n := len(last.More); n != 1950 || last.More[0].Line != 51 || last.More[n-1].Line != 2000 {
		t.Errorf("the last finding kept holds %d places; want 1950, lines 51-2000", n)
	}
	// 0 keeps every finding in full.
	all := 0
	for _, d := range run(t, []string{"."}, Options{Rules: []*rules.Rule{rules.Lookup("MCP001")}}).Diagnostics {
		if d.Code == "MCP001" && d.More == nil {
			all++
		}
	}
	if all != 2000 {
		t.Errorf("MaxSame 0 kept %d findings in full, want 2000", all)
	}
}

// repeatedRun runs twice, with a cache, on a project whose requirements
// repeat one line n times, and returns the cache's size and the result.
func repeatedRun(t *testing.T, n int) (int64, *Result) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": strings.Repeat("mcp==1.20.0\n", n),
		"server.py":        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('s')\n",
	})
	dir := filepath.Join(t.TempDir(), "cache")
	opts := cacheOpts(dir, filepath.Join(t.TempDir(), "key"))
	opts.MaxSame = 50
	cacheRun(t, root, opts) // compared with a run without the cache
	warm := cacheRun(t, root, opts)
	if warm.Reused != 1 {
		t.Errorf("second run reused %d projects, want 1", warm.Reused)
	}
	var size int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			size += fi.Size()
		}
		return nil
	})
	return size, warm
}
