package engine

import (
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// projectsOf returns, for each project of the run, "dir: handlers; mcp line"
// with paths relative to root.
func projectsOf(root string, res *Result) []string {
	root = filepath.ToSlash(root)
	var out []string
	for _, p := range res.Projects {
		dir := strings.TrimPrefix(strings.TrimPrefix(p.Dir, root), "/")
		if dir == "" {
			dir = "."
		}
		out = append(out, fmt.Sprintf("%s: %d handlers; %s", dir, len(p.Handlers), p.Deps().Describe("mcp")))
	}
	sort.Strings(out)
	return out
}

func runLayout(t *testing.T, files map[string]string) (string, *Result) {
	t.Helper()
	root := testfs.Write(t, files)
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP001"), rules.Lookup("MCP101")}})
	return root, res
}

func wantProjects(t *testing.T, root string, res *Result, want ...string) {
	t.Helper()
	got := projectsOf(root, res)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("projects:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// A sibling member's FastMCP subclass, and the root lock's mcp.
var uvWorkspace = map[string]string{
	"pyproject.toml": `[project]
name = "mono"
version = "0"
dependencies = []

[tool.uv.workspace]
members = ["packages/*"]
exclude = ["packages/legacy"]
`,
	"uv.lock": `version = 1

[[package]]
name = "mcp"
version = "1.9.2"
source = { registry = "https://pypi.org/simple" }
`,
	"packages/core/pyproject.toml":   "[project]\nname = \"core\"\nversion = \"0\"\ndependencies = [\"mcp>=0.2.0\"]\n",
	"packages/core/core/__init__.py": "",
	"packages/core/core/base.py":     "from mcp.server.fastmcp import FastMCP\n\n\nclass BaseServer(FastMCP):\n    pass\n",
	"packages/srv/pyproject.toml": `[project]
name = "srv"
version = "0"
dependencies = ["core", "mcp>=0.2.0"]

[tool.uv.sources]
core = { workspace = true }
`,
	"packages/srv/srv/__init__.py": "",
	"packages/srv/srv/server.py": `import anyio
from core.base import BaseServer

app = BaseServer("srv")


@app.tool()
async def slow() -> int:
    return await anyio.to_thread.run_sync(sum, [1])
`,
	// excluded: a project of its own, which resolves its own range
	"packages/legacy/pyproject.toml": "[project]\nname = \"legacy\"\nversion = \"0\"\ndependencies = [\"mcp>=2\"]\n",
	"packages/legacy/legacy.py":      "from core.base import BaseServer\n\napp = BaseServer('x')\n",
}

func TestLayoutUVWorkspace(t *testing.T) {
	root, res := runLayout(t, uvWorkspace)
	wantProjects(t, root, res,
		".: 1 handlers; mcp ==1.9.2 (uv.lock), declared >=0.2.0 in packages/core/pyproject.toml, >=0.2.0 in packages/srv/pyproject.toml",
		"packages/legacy: 0 handlers; mcp >=2 in pyproject.toml")
	got := codes(root, res)
	if !contains(got, "packages/srv/srv/server.py:9:MCP101:error") {
		t.Errorf("findings %q: the member's handler, on the sibling's FastMCP subclass, runs on the root lock's mcp 1.9.2", got)
	}
	var joined []string
	for _, p := range res.Projects {
		joined = append(joined, p.Joined...)
	}
	if len(joined) != 2 || !strings.Contains(joined[0], "packages/core: member of the uv workspace") {
		t.Errorf("joined %q, want the two members", joined)
	}
}

func TestLayoutMemberLockStaysApart(t *testing.T) {
	files := maps.Clone(uvWorkspace)
	// uv reads the root's lock only: a member's leftover lock does not pin
	// the workspace's environment.
	files["packages/srv/uv.lock"] = "version = 1\n\n[[package]]\nname = \"mcp\"\nversion = \"1.3.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n"
	root, res := runLayout(t, files)
	wantProjects(t, root, res,
		".: 1 handlers; mcp ==1.9.2 (uv.lock), declared >=0.2.0 in packages/core/pyproject.toml, >=0.2.0 in packages/srv/pyproject.toml",
		"packages/legacy: 0 handlers; mcp >=2 in pyproject.toml",
		"packages/srv: 0 handlers; mcp ==1.3.0 (uv.lock)")
}

func TestLayoutPDMWorkspace(t *testing.T) {
	root, res := runLayout(t, map[string]string{
		"pyproject.toml":            "[project]\nname = \"mono\"\nversion = \"0\"\n\n[tool.pdm.workspace]\nmembers = [\"apps/*\"]\n",
		"pdm.lock":                  "[metadata]\nlock_version = \"4.4\"\n\n[[package]]\nname = \"mcp\"\nversion = \"1.12.4\"\n",
		"apps/srv/pyproject.toml":   "[project]\nname = \"srv\"\nversion = \"0\"\ndependencies = [\"mcp>=1.0\"]\n",
		"apps/srv/srv/__init__.py":  "",
		"apps/srv/srv/server.py":    "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def t() -> str:\n    return 'x'\n",
		"other/srv2/pyproject.toml": "[project]\nname = \"srv2\"\nversion = \"0\"\ndependencies = [\"mcp>=1.0\"]\n",
	})
	wantProjects(t, root, res,
		".: 1 handlers; mcp ==1.12.4 (pdm.lock), declared >=1.0 in apps/srv/pyproject.toml",
		"other/srv2: 0 handlers; mcp >=1.0 in pyproject.toml")
}

func TestLayoutHatchWorkspace(t *testing.T) {
	root, res := runLayout(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"mono\"\nversion = \"0\"\ndependencies = [\"mcp==1.26.0\"]\n\n" +
			"[tool.hatch.envs.default]\nworkspace.members = [{path = \"libs/a\"}, \"libs/b*\"]\nworkspace.exclude = [\"libs/b2\"]\n",
		"libs/a/pyproject.toml":  "[project]\nname = \"a\"\nversion = \"0\"\ndependencies = [\"anyio\"]\n",
		"libs/b1/pyproject.toml": "[project]\nname = \"b1\"\nversion = \"0\"\n",
		"libs/b2/pyproject.toml": "[project]\nname = \"b2\"\nversion = \"0\"\ndependencies = [\"mcp>=2\"]\n",
	})
	wantProjects(t, root, res,
		".: 0 handlers; mcp ==1.26.0 in pyproject.toml",
		"libs/b2: 0 handlers; mcp >=2 in pyproject.toml")
}

// Poetry has no workspace: a path dependency is installed by the project
// that names it, which keeps its own lock; the folder stays a project.
func TestLayoutPoetryPathDependencyStaysApart(t *testing.T) {
	root, res := runLayout(t, map[string]string{
		"pyproject.toml":        "[tool.poetry]\nname = \"app\"\n\n[tool.poetry.dependencies]\nlib = {path = \"lib\", develop = true}\nmcp = \"1.26.0\"\n",
		"lib/pyproject.toml":    "[tool.poetry]\nname = \"lib\"\n\n[tool.poetry.dependencies]\nmcp = \">=2\"\n",
		"lib/lib/__init__.py":   "",
		"lib/lib/server_mcp.py": "",
	})
	wantProjects(t, root, res,
		".: 0 handlers; mcp 1.26.0 in pyproject.toml",
		"lib: 0 handlers; mcp >=2 in pyproject.toml")
}

const pipCompileHeader = `#
# This file is autogenerated by pip-compile with Python 3.12
# by the following command:
#
#    pip-compile --output-file=requirements/prod.txt pyproject.toml
#
`

func TestLayoutCompiledRequirements(t *testing.T) {
	server := "from fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def t() -> str:\n    return 'x'\n"
	for _, c := range []struct{ name, file, header string }{
		{"pip-compile", "requirements/prod.txt", pipCompileHeader},
		{"uv pip compile", "requirements/base.txt", "# This file was autogenerated by uv via the following command:\n#    uv pip compile pyproject.toml -o requirements/base.txt\n"},
		{"pip-compile without --output-file", "requirements.txt", "#\n# by the following command:\n#\n#    pip-compile\n#\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, res := runLayout(t, map[string]string{
				"pyproject.toml": "[project]\nname = \"app\"\nversion = \"0\"\ndependencies = [\"fastmcp>=2\"]\n",
				"server.py":      server,
				c.file:           c.header + "fastmcp==3.4.7\n    # via app\nmcp==1.29.0\n    # via fastmcp\n",
			})
			name := "requirements/" + filepath.Base(c.file)
			if c.file == "requirements.txt" {
				name = "requirements.txt"
			}
			wantProjects(t, root, res, ".: 1 handlers; mcp =="+"1.29.0 ("+name+")")
			if c.file == "requirements.txt" {
				return // the same folder: nothing was joined
			}
			if got := codes(root, res); !contains(got, c.file+":"+lineOf(c.header+"fastmcp==3.4.7\n    # via app\n")+":MCP001:error") {
				t.Errorf("findings %q: the compiled lock's mcp pin is the server's", got)
			}
			src := res.Projects[0].Deps().VersionSources()
			if len(src) != 2 || src[1].Role != "lock" || !strings.Contains(src[1].Why, "compiled from") || strings.Join(src[1].Decides, ",") != "mcp,fastmcp" {
				t.Errorf("version sources %+v", src)
			}
		})
	}
}

func lineOf(before string) string { return fmt.Sprint(strings.Count(before, "\n") + 1) }

// A compiled file whose source is in its own folder, or names nothing in
// the tree, stays where it is.
func TestLayoutCompiledStaysApart(t *testing.T) {
	root, res := runLayout(t, map[string]string{
		"pyproject.toml":         "[project]\nname = \"app\"\nversion = \"0\"\ndependencies = [\"mcp>=2\"]\n",
		"requirements/dev.in":    "mcp\n",
		"requirements/dev.txt":   "#    pip-compile requirements/dev.in --output-file requirements/dev.txt\nmcp==1.26.0\n",
		"tools/requirements.txt": "#    pip-compile --output-file=tools/requirements.txt ../elsewhere/pyproject.toml\nmcp==1.25.0\n",
	})
	wantProjects(t, root, res,
		".: 0 handlers; mcp >=2 in pyproject.toml",
		"requirements: 0 handlers; mcp ==1.26.0 (dev.txt), declared (any version) in dev.in",
		"tools: 0 handlers; mcp ==1.25.0 (requirements.txt)")
}

var nestedPackage = map[string]string{
	"pyproject.toml":               "[project]\nname = \"mysrv\"\nversion = \"0\"\ndependencies = [\"mcp==1.26.0\"]\n\n[project.scripts]\nmysrv = \"mysrv.cli:main\"\n",
	"mysrv/__init__.py":            "",
	"mysrv/base.py":                "from mcp.server.fastmcp import FastMCP\n\n\nclass Server(FastMCP):\n    pass\n",
	"mysrv/cli.py":                 "from mysrv.tools.server import app\n\n\ndef main():\n    app.run()\n",
	"mysrv/tools/__init__.py":      "",
	"mysrv/tools/requirements.txt": "httpx\n",
	"mysrv/tools/server.py": `import anyio
from mysrv.base import Server

app = Server("tools")


@app.tool()
async def slow() -> int:
    return await anyio.to_thread.run_sync(sum, [1])
`,
}

func TestLayoutNestedPackage(t *testing.T) {
	root, res := runLayout(t, nestedPackage)
	wantProjects(t, root, res,
		".: 1 handlers; mcp ==1.26.0 in pyproject.toml",
		"mysrv/tools: 0 handlers; mcp not declared")
	if got := codes(root, res); !contains(got, "mysrv/tools/server.py:9:MCP101:error") {
		t.Errorf("findings %q: the console script's server runs on the root's mcp 1.26.0", got)
	}
}

func TestLayoutNestedPackageMain(t *testing.T) {
	files := maps.Clone(nestedPackage)
	files["pyproject.toml"] = "[project]\nname = \"mysrv\"\nversion = \"0\"\ndependencies = [\"mcp==1.26.0\"]\n"
	files["mysrv/__main__.py"] = "from mysrv.cli import main\n\nmain()\n"
	root, res := runLayout(t, files)
	wantProjects(t, root, res,
		".: 1 handlers; mcp ==1.26.0 in pyproject.toml",
		"mysrv/tools: 0 handlers; mcp not declared")
}

// Without an entry point into the package (or outside any package), the
// folder's code stays with its own dependency files.
func TestLayoutNestedStaysApart(t *testing.T) {
	files := maps.Clone(nestedPackage)
	files["pyproject.toml"] = "[project]\nname = \"mysrv\"\nversion = \"0\"\ndependencies = [\"mcp==1.26.0\"]\n\n[project.scripts]\nother = \"othertool.cli:main\"\n"
	root, res := runLayout(t, files)
	wantProjects(t, root, res,
		".: 0 handlers; mcp ==1.26.0 in pyproject.toml",
		"mysrv/tools: 0 handlers; mcp not declared")

	files = map[string]string{
		"pyproject.toml":            "[project]\nname = \"x\"\nversion = \"0\"\n\n[project.scripts]\nx = \"x.cli:main\"\n",
		"examples/requirements.txt": "mcp==1.26.0\n",
		"examples/x/__init__.py":    "",
		"examples/x/server_mcp.py":  "",
	}
	root, res = runLayout(t, files)
	wantProjects(t, root, res,
		".: 0 handlers; mcp not declared",
		"examples: 0 handlers; mcp ==1.26.0 in requirements.txt")
}

// A member inherits the workspace root's [tool.uv.sources]: its bare `mcp`
// is the root's git tag, not any release.
func TestLayoutMemberInheritsRootSources(t *testing.T) {
	root, res := runLayout(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"mono\"\nversion = \"0\"\n\n[tool.uv.workspace]\nmembers = [\"apps/*\"]\n\n" +
			"[tool.uv.sources]\nmcp = { git = \"https://github.com/modelcontextprotocol/python-sdk\", tag = \"v1.25.0\" }\n",
		"apps/a/pyproject.toml": "[project]\nname = \"a\"\nversion = \"0\"\ndependencies = [\"mcp\"]\n",
		"apps/b/pyproject.toml": "[project]\nname = \"b\"\nversion = \"0\"\ndependencies = [\"mcp>=2\"]\n\n[tool.uv.sources]\nmcp = { index = \"internal\" }\n",
	})
	wantProjects(t, root, res,
		".: 0 handlers; mcp @ https://github.com/modelcontextprotocol/python-sdk in apps/a/pyproject.toml, >=2 in apps/b/pyproject.toml")
	if r := res.Projects[0].Deps().Resolution("mcp"); !r.Set.AdmitsRange("1.25.0", "1.25.1") || r.Set.AdmitsRange("1.26.0", "2.0.0") {
		t.Errorf("mcp resolves to %s, want the root's tag 1.25.0 for apps/a", r.Set)
	}
}

// A member scanned on its own (the pre-commit hook's project roots) still
// runs on its workspace root's lock.
func TestLayoutMemberScannedAlone(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		".git/HEAD":                      "ref: refs/heads/main\n",
		"pyproject.toml":                 uvWorkspace["pyproject.toml"],
		"uv.lock":                        uvWorkspace["uv.lock"],
		"packages/srv/pyproject.toml":    "[project]\nname = \"srv\"\nversion = \"0\"\ndependencies = [\"mcp>=0.2.0\"]\n",
		"packages/legacy/pyproject.toml": uvWorkspace["packages/legacy/pyproject.toml"],
	})
	member := filepath.Join(root, "packages", "srv")
	res := run(t, []string{member}, Options{Rules: []*rules.Rule{rules.Lookup("MCP001")}})
	if len(res.Projects) != 1 || res.Projects[0].Deps().Describe("mcp") != "mcp ==1.9.2 (../../uv.lock), declared >=0.2.0 in pyproject.toml" {
		t.Errorf("projects %q", projectsOf(root, res))
	}
	// excluded from the workspace: its own range
	res = run(t, []string{filepath.Join(root, "packages", "legacy")}, Options{Rules: []*rules.Rule{rules.Lookup("MCP001")}})
	if len(res.Projects) != 1 || res.Projects[0].Deps().Describe("mcp") != "mcp >=2 in pyproject.toml" {
		t.Errorf("projects %q", projectsOf(root, res))
	}
}

// A run that takes the workspace's analysis from the cache reports the
// same project: the joined members and the root lock's versions.
func TestLayoutCached(t *testing.T) {
	root := testfs.Write(t, uvWorkspace)
	opts := Options{Jobs: 2, Rules: []*rules.Rule{rules.Lookup("MCP101")}, Cache: NewCache(CacheOptions{})}
	first := run(t, []string{root}, opts)
	second := run(t, []string{root}, opts)
	if second.Reused == 0 {
		t.Fatalf("nothing reused: %d analysed", second.Analysed)
	}
	a, b := projectsOf(root, first), projectsOf(root, second)
	if strings.Join(a, "\n") != strings.Join(b, "\n") || len(second.Projects[0].Joined) != 2 {
		t.Errorf("cached run: %q, joined %q; first run %q", b, second.Projects[0].Joined, a)
	}
	if got := second.Projects[0].Versions().VersionSources(); len(got) != 4 || got[1].Path != filepath.ToSlash(filepath.Join(root, "uv.lock")) || got[1].Role != "lock" {
		t.Errorf("cached version sources %+v", got)
	}
}

// countReads counts, by absolute path, what the run reads from the disk
// (readDisk, under readRaw: every read of a run goes through it), for the
// dependency files only.
func countReads(t *testing.T) map[string]int {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{}
	t.Cleanup(func() { readDisk = ReadFile })
	readDisk = func(p string) ([]byte, error) {
		if k, ok := workspace.Classify(p); ok && k == workspace.Dependency {
			abs, _ := filepath.Abs(filepath.FromSlash(p))
			mu.Lock()
			reads[abs]++
			mu.Unlock()
		}
		return ReadFile(p)
	}
	return reads
}

// The project model reads the manifests and requirements files (their
// workspaces, compile headers and includes) before the projects are
// loaded, and the loads read them again; a workspace's root manifest above
// the scan is asked once per member. Each is read from the disk once per
// run, with a cache or without.
func TestLayoutReadsEachDependencyFileOnce(t *testing.T) {
	files := maps.Clone(uvWorkspace)
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	files["svc/requirements.txt"] = "-r requirements/prod.txt\nmcp>=1.2\n"
	files["svc/requirements/prod.txt"] = "anyio>=4\n"
	files["svc/server.py"] = offloadServer
	files["api/pyproject.toml"] = "[project]\nname = \"api\"\nversion = \"0\"\ndependencies = [\"mcp\"]\n"
	files["api/requirements.txt"] = "#\n#    pip-compile pyproject.toml\n#\nmcp==1.9.0\n"
	files["api/server.py"] = offloadServer
	root := testfs.Write(t, files)
	t.Chdir(root)
	check := func(what string, roots []string, opts Options) {
		t.Helper()
		reads := countReads(t)
		res := run(t, roots, opts)
		if len(res.Projects) < 2 {
			t.Fatalf("%s: %d projects: the tree tests too little", what, len(res.Projects))
		}
		if len(reads) < 3 {
			t.Fatalf("%s: %d dependency files read: the tree tests too little", what, len(reads))
		}
		for p, n := range reads {
			if n != 1 {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s: %s read %d times, want once", what, filepath.ToSlash(rel), n)
			}
		}
	}
	all := Options{Jobs: 2, Rules: rules.All()}
	check("the whole tree", []string{"."}, all)
	cached := all
	cached.Cache = NewCache(CacheOptions{})
	check("the whole tree, a cache", []string{"."}, cached)
	// The members alone (the pre-commit hook's roots): the root's
	// pyproject.toml, above them, says they are members.
	check("two members", []string{"packages/srv", "packages/core"}, all)
}
