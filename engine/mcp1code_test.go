package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// TestCodeOnMCP1 checks that a project whose server imports an API that
// only mcp 1.x has counts as 1.x although its requirement is open (an
// error that says why), that a lock pinning 2.x still wins, that a
// requirement already below 2 needs no explanation, and that a cached
// analysis describes the versions as a fresh one does.
func TestCodeOnMCP1(t *testing.T) {
	lock2 := "version = 1\n\n[[package]]\nname = \"mcp\"\nversion = \"2.3.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
	root := testfs.Write(t, map[string]string{
		"open/requirements.txt":   "mcp[cli]>=1.0\n",
		"open/server.py":          offloadServer,
		"open/helpers.py":         "def work(): return 1\n",
		"locked/pyproject.toml":   "[project]\nname='locked'\ndependencies=['mcp>=1.0']\n",
		"locked/uv.lock":          lock2,
		"locked/server.py":        offloadServer,
		"locked/helpers.py":       "def work(): return 1\n",
		"below2/requirements.txt": "mcp>=1.20,<2\n",
		"below2/server.py":        offloadServer,
		"below2/helpers.py":       "def work(): return 1\n",
		"mcp2/requirements.txt":   "mcp>=1.0\n",
		"mcp2/server.py":          strings.Replace(strings.Replace(offloadServer, "mcp.server.fastmcp import FastMCP", "mcp.server.mcpserver import MCPServer", 1), "FastMCP(", "MCPServer(", 1),
		"mcp2/helpers.py":         "def work(): return 1\n",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	if got, want := strings.Join(codes(root, res), " "), "below2/server.py:8:MCP101:error open/server.py:8:MCP101:error"; got != want {
		t.Fatalf("findings %q, want %q", got, want)
	}
	const why = "\nthe project runs only on mcp 1.x although its requirement admits 2.x: its code imports mcp.server.fastmcp (server.py:1), which mcp 2.x removed"
	for _, d := range res.Diagnostics {
		open := strings.Contains(d.Path, "/open/")
		if strings.HasSuffix(d.Message, why) != open {
			t.Errorf("%s: message %q (says why: want %v)", d.Path, d.Message, open)
		}
	}
	describe := map[string]string{}
	for _, p := range res.Projects {
		describe[filepath.Base(p.Dir)] = p.Deps().Describe("mcp")
	}
	for dir, want := range map[string]string{
		"open":   "mcp >=1.0 in requirements.txt; only 1.x: the code imports mcp.server.fastmcp (server.py:1), which mcp 2.x removed",
		"locked": "mcp ==2.3.0 (uv.lock), declared >=1.0 in pyproject.toml",
		"below2": "mcp >=1.20,<2 in requirements.txt",
		"mcp2":   "mcp >=1.0 in requirements.txt",
	} {
		if describe[dir] != want {
			t.Errorf("%s: Describe = %q, want %q", dir, describe[dir], want)
		}
	}
	// A cached analysis (cacheRun compares every finding and Describe with
	// an uncached run) keeps what the code said.
	keyFile := filepath.Join(t.TempDir(), "key")
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	warm := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if warm.Reused != 4 {
		t.Fatalf("warm run reused %d projects, want 4", warm.Reused)
	}
	for _, p := range warm.Projects {
		if filepath.Base(p.Dir) == "open" && !strings.Contains(p.Deps().Describe("mcp"), "only 1.x: the code imports") {
			t.Errorf("cached: Describe = %q", p.Deps().Describe("mcp"))
		}
	}
}
