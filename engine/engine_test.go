package engine

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

const offloadServer = `from mcp.server.fastmcp import FastMCP
import anyio
from helpers import work
mcp = FastMCP("x")

@mcp.tool()
async def t():
    return await anyio.to_thread.run_sync(work)
`

// codes returns "relpath:line:CODE" for every finding.
func codes(root string, res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		p := strings.TrimPrefix(d.Path, filepath.ToSlash(root)+"/")
		out = append(out, p+":"+strconv.Itoa(d.Start.Line)+":"+d.Code+":"+d.Severity.String())
	}
	sort.Strings(out)
	return out
}

func run(t *testing.T, roots []string, opts Options) *Result {
	t.Helper()
	res, err := Run(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestProjectsAndSeverity(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"pyproject.toml":           "[project]\nname='top'\ndependencies=['mcp>=2']\n",
		"server.py":                offloadServer,
		"helpers.py":               "def work(): return 1\n",
		"svc/requirements.txt":     "mcp==1.26.0\n",
		"svc/server.py":            offloadServer,
		"svc/helpers.py":           "def work(): return 1\n",
		"unknown/sub/mcp_thing.py": "",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	got := codes(root, res)
	want := []string{"svc/server.py:8:MCP101:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings %q, want %q (mcp>=2 project silent, mcp==1.26 project error)", got, want)
	}
	var dirs []string
	for _, p := range res.Projects {
		dirs = append(dirs, strings.TrimPrefix(strings.TrimPrefix(p.Dir, filepath.ToSlash(root)), "/"))
	}
	if strings.Join(dirs, ",") != ",svc" {
		t.Errorf("projects %q", dirs)
	}
	// --show-safe turns the mcp>=2 finding into a note.
	res = run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}, ShowSafe: true})
	if got := codes(root, res); len(got) != 2 || got[0] != "server.py:8:MCP101:note" {
		t.Errorf("with ShowSafe: %q", got)
	}
	// Unknown versions: a warning.
	bare := testfs.Write(t, map[string]string{"server.py": offloadServer, "helpers.py": "def work(): return 1\n"})
	if got := codes(bare, run(t, []string{bare}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})); len(got) != 1 || !strings.HasSuffix(got[0], ":warning") {
		t.Errorf("unknown versions: %q", got)
	}
	if got := codes(bare, run(t, []string{bare}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}, AssumeMCP: "1.26.0"})); len(got) != 1 || !strings.HasSuffix(got[0], ":error") {
		t.Errorf("--assume-mcp 1.26.0: %q", got)
	}
}

func TestPrefilterParsesOnlyWhatCanMatter(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt":      "mcp==1.26.0\n",
		"app/__init__.py":       "",
		"app/server.py":         "from mcp.server.fastmcp import FastMCP\nimport app.tools.deep\nfrom . import util\napp = FastMCP('x')\nfrom . import handlers\n",
		"app/util.py":           "import app.more\n",
		"app/more.py":           "X = 1\n",
		"app/tools/__init__.py": "",
		"app/tools/deep.py":     "Y = 2\n",
		"app/unrelated.py":      "import os\n",
		"app/handlers.py":       "from app.server import app\n\n@app.tool()\nasync def t(): pass\n",
		"scripts/other.py":      "print('x')\n",
	})
	res := run(t, []string{root}, Options{})
	// server, util, more (through util), tools/__init__, tools/deep,
	// app/__init__, and app/handlers.py (it registers on an imported server).
	if res.Parsed != 7 {
		t.Errorf("parsed %d files, want 7 (the seeds and their import closure)", res.Parsed)
	}
	if n := len(res.Projects[0].Handlers); n != 1 {
		t.Errorf("%d handlers, want the one in app/handlers.py", n)
	}
	res = run(t, []string{root}, Options{ReportUnreachable: true})
	if res.Parsed != 9 {
		t.Errorf("with ReportUnreachable parsed %d, want every file (9)", res.Parsed)
	}
	depOnly := &rules.Rule{Code: "MCP999", Name: "deps-only", Kind: rules.DependencyRule, Run: func(*rules.Pass) {}}
	res = run(t, []string{root}, Options{Rules: []*rules.Rule{depOnly}})
	if res.Parsed != 0 {
		t.Errorf("with only a dependency rule that reads no code parsed %d Python files, want 0", res.Parsed)
	}
	// MCP001 reads code too: it tells a server project from a client one,
	// a guard changes its severity, and its guard fix edits the module that
	// creates the server.
	res = run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP001")}})
	if res.Parsed != 7 || len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != rules.SeverityError {
		t.Errorf("with MCP001 (ReadsCode) parsed %d Python files, want 7; findings %+v", res.Parsed, res.Diagnostics)
	}
}

// A dependency-only run tells a server project from a client one, and a
// file given as the root does not make a server project look like a client.
func TestDependencyRuleOnClientProject(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"client/requirements.txt": "mcp==1.26.0\n",
		"client/main.py":          "from mcp import ClientSession\n",
		"server/requirements.txt": "mcp==1.26.0\n",
		"server/app.py":           "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n",
	})
	sel := []*rules.Rule{rules.Lookup("MCP001")}
	got := codes(root, run(t, []string{root}, Options{Rules: sel}))
	if strings.Join(got, " ") != "server/requirements.txt:1:MCP001:error" {
		t.Errorf("findings %q, want only the server's", got)
	}
	got = codes(root, run(t, []string{root}, Options{Rules: sel, ShowSafe: true}))
	if strings.Join(got, " ") != "client/requirements.txt:1:MCP001:note server/requirements.txt:1:MCP001:error" {
		t.Errorf("with ShowSafe %q", got)
	}
	// Only the requirements file given: the code was not seen, so the
	// finding stays an error.
	file := filepath.ToSlash(filepath.Join(root, "client", "requirements.txt"))
	if got := codes(root, run(t, []string{file}, Options{Rules: sel})); strings.Join(got, " ") != "client/requirements.txt:1:MCP001:error" {
		t.Errorf("file root: %q", got)
	}
}

func TestSetupPyInAPackageIsAModule(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"pkg/__init__.py":  "",
		"pkg/setup.py":     "def setup(): pass\n",
		"pkg/server.py":    offloadServer,
		"pkg/helpers.py":   "def work(): return 1\n",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	if got := codes(root, res); len(got) != 1 || got[0] != "pkg/server.py:8:MCP101:error" {
		t.Errorf("findings %q: pkg/setup.py must not split pkg into a project of its own", got)
	}
}

func TestOuterProject(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"pyproject.toml":     "[project]\nname='x'\ndependencies=['mcp==1.26.0']\n",
		"src/app/server.py":  offloadServer,
		"src/app/helpers.py": "def work(): return 1\n",
	})
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{filepath.Join(root, "src")}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != rules.SeverityError {
		t.Fatalf("scanning src/ should use the pyproject.toml above it: %v", codes(root, res))
	}
}

func TestBadInput(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"syntax.py":        "from mcp.server.fastmcp import FastMCP\ndef f(:\n    pass\n",
		"latin1.py":        "import mcp\nname = '\xe9t\xe9'\n",
		"empty.py":         "",
		"crlf.py":          "from mcp.server.fastmcp import FastMCP\r\nmcp = FastMCP('x')\r\n",
	})
	// A directory symlink loop and a dangling symlink.
	if err := os.Symlink(root, filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "missing.py"), filepath.Join(root, "dangling.py")); err != nil {
		t.Fatal(err)
	}
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	got := codes(root, res)
	want := []string{"dangling.py:1:MCP000:error", "latin1.py:2:MCP000:error", "syntax.py:2:MCP000:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings %q, want %q", got, want)
	}
}

func TestSiblingModulesWithOneName(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"app/server.py":    offloadServer,
		"app/helpers.py":   "def work(): return 1\n",
		"build/server.py":  offloadServer,
		"build/helpers.py": "def work(): return 2\n",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	got := codes(root, res)
	want := []string{"app/server.py:8:MCP101:error", "build/server.py:8:MCP101:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings %q, want %q", got, want)
	}
	if n := len(res.Projects[0].Handlers); n != 2 {
		t.Errorf("%d handlers, want 2", n)
	}
}

// The prefilter reads import lines only: a tree that never imports the MCP
// framework parses nothing, however often it says "mcp", ".tool" or
// ".resource"; a module that imports nothing of MCP but is imported by (or
// imports) a module that does is parsed, and its registrations are found.
func TestPrefilterFollowsImportLinesOnly(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"lib/pyproject.toml":   "[project]\nname='lib'\ndependencies=['requests']\n",
		"lib/res.py":           "# mcp-like words: .tool .resource .prompt add_tool call_tool\nimport os\n\ndef load(mcp):\n    return mcp.resource('x')\n",
		"lib/other.py":         "from res import load\n",
		"srv/requirements.txt": "mcp==1.26.0\n",
		"srv/main.py": "from mcp.server.fastmcp import FastMCP\nfrom tools import (\n    register,\n)\n" +
			"app = FastMCP('x')\nregister(app)\n",
		"srv/tools.py":     "import anyio\nfrom helpers import work\n\ndef register(server):\n    @server.tool()\n    async def t():\n        return await anyio.to_thread.run_sync(work)\n",
		"srv/helpers.py":   "def work():\n    return 1\n",
		"srv/unrelated.py": "import json\n# .tool mcp\n",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
	parsed := map[string]int{}
	for _, p := range res.Projects {
		parsed[filepath.Base(p.Dir)] = p.Modules
	}
	if parsed["lib"] != 0 {
		t.Errorf("lib (no MCP import) parsed %d files, want 0", parsed["lib"])
	}
	if parsed["srv"] != 3 {
		t.Errorf("srv parsed %d files, want 3 (main, tools through a parenthesized import, helpers)", parsed["srv"])
	}
	if got := codes(root, res); strings.Join(got, ",") != "srv/tools.py:7:MCP101:error" {
		t.Errorf("findings %q, want the offload in tools.py (registered on a server passed in)", got)
	}
}

func TestMayHaveDirective(t *testing.T) {
	for src, want := range map[string]bool{
		"x = 1  # NoQa: MCP101": true, "NOQA": true, "# noqa": true, "n": false, "": false,
		"noq": false, "nnoqa": true, "no qa": false, "NOQ\nA": false, "annoqaz": true,
		"# mcplint: ignore[MCP101]": true, "# MCPLINT": false,
		// Other linters' code lists are not mcplint's; an MCP code anywhere in
		// the list is, and so is a blanket noqa or one with a reason after it.
		"import os  # noqa: F401": false, "# NOQA:E501,W291": false, "# noqa : F401 unused here": false,
		"# noqa: F401, MCP101": true, "# noqa:\tmcp104": true, "# noqa: F401\n# noqa": true,
		"# noqa: F401\n# noqa: MCP103": true, "# noqa:": false, "# noqa: F401MCP101": false,
		"# noqa: MCP": false, "# noqa: F401 MCP101": true, "# noqa: E501 reason MCP101": false,
		"# noqa: F401x MCP101": false, "# noqa F401": true, "# noqa: MCP101\nx = 1": true,
		"# noqa: F401, MCP101\r\n": true, "# noqa: MCP101x": false, "# noqa: F401\nMCP101": false,
	} {
		if got := MayHaveDirective([]byte(src)); got != want {
			t.Errorf("MayHaveDirective(%q) = %v, want %v", src, got, want)
		}
	}
}
