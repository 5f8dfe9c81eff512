package rules_test

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

const guardedServer = `"""Weather tools."""
from __future__ import annotations

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)


if __name__ == "__main__":
    mcp.run()
`

// createsFile picks the fix alternative that writes a new file: the guard.
func createsFile(d *rules.Diagnostic) *rules.Fix {
	for i := range d.Fixes {
		for _, e := range d.Fixes[i].Edits {
			if e.Create {
				return &d.Fixes[i]
			}
		}
	}
	return nil
}

func guardOpts(showSafe bool, overlay map[string][]byte) engine.Options {
	var sel []*rules.Rule
	for _, c := range []string{"MCP001", "MCP101", "MCP106", "MCP107"} {
		sel = append(sel, rules.Lookup(c))
	}
	return engine.Options{Rules: sel, Jobs: 2, ShowSafe: showSafe, Overlay: overlay}
}

// TestGuardFixEndToEnd applies MCP001's guard alternative to a package
// project: the module is written beside the server, imported first after
// the docstring and the __future__ import, recognised on re-analysis (the
// MCP101 error becomes a note that points at the guard), not offered again,
// and written to disk only as a new file.
func TestGuardFixEndToEnd(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.27,<2\"]\n",
		"app/__init__.py": "",
		"app/server.py":   guardedServer,
	})
	server := filepath.ToSlash(filepath.Join(root, "app", "server.py"))
	guard := filepath.ToSlash(filepath.Join(root, "app", rules.GuardModuleName+".py"))

	before, err := engine.Run([]string{root}, guardOpts(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	offered := 0
	for i, d := range before.Diagnostics {
		codes = append(codes, d.Code+":"+d.Severity.String())
		if createsFile(&before.Diagnostics[i]) != nil {
			offered++
		}
	}
	if strings.Join(codes, " ") != "MCP101:error MCP001:error" && strings.Join(codes, " ") != "MCP001:error MCP101:error" {
		t.Fatalf("before the fix: %v, want an MCP001 and an MCP101 error", codes)
	}
	if offered != 1 {
		t.Fatalf("the guard is offered on %d findings, want 1 (MCP001)", offered)
	}

	out, err := fix.Run([]string{root}, guardOpts(false, nil), fix.Mode{Pick: createsFile, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) > 0 {
		t.Fatalf("fix failures: %+v", out.Failures)
	}
	changed := map[string][]byte{}
	for _, f := range out.Files {
		changed[f.Path] = f.New
		if f.Created != (f.Path == guard) {
			t.Errorf("%s: Created = %v", f.Path, f.Created)
		}
	}
	if string(changed[guard]) != rules.GuardModule {
		t.Errorf("guard module not written as rules.GuardModule: %q", changed[guard])
	}
	wantServer := strings.Replace(guardedServer, "from __future__ import annotations\n\n",
		"from __future__ import annotations\n\n# Must stay the first import: mcp_respond_guard.py says why.\nfrom . import mcp_respond_guard  # noqa: F401  # isort: skip\n# isort: split\n", 1)
	if string(changed[server]) != wantServer {
		t.Errorf("server after the fix:\n%s", fix.UnifiedDiff(server, []byte(wantServer), changed[server]))
	}
	if len(out.Result.Diagnostics) != 0 {
		t.Errorf("after the fix %d findings remain, want none: %+v", len(out.Result.Diagnostics), out.Result.Diagnostics)
	}
	if out.Fixed != 1 {
		t.Errorf("Fixed = %d, want 1 (MCP001, fixed through other files)", out.Fixed)
	}

	// With --show-safe the MCP101 finding is a note pointing at the guard.
	after, err := engine.Run([]string{root}, guardOpts(true, changed))
	if err != nil {
		t.Fatal(err)
	}
	if g := after.Projects[0].Guard; g == nil || g.Path != guard || g.Line != 45 {
		t.Errorf("project guard = %+v, want %s:45 (RequestResponder.respond = ...)", g, guard)
	}
	for i, d := range after.Diagnostics {
		if d.Severity != rules.SeverityNote {
			t.Errorf("%s: %s in a guarded project, want a note", d.Code, d.Severity)
		}
		if createsFile(&after.Diagnostics[i]) != nil {
			t.Errorf("%s: the guard is offered again in a guarded project", d.Code)
		}
		if d.Code == "MCP101" && (len(d.Related) == 0 || d.Related[len(d.Related)-1].Path != guard) {
			t.Errorf("MCP101 note does not point at the guard: %+v", d.Related)
		}
	}
	again, err := fix.Run([]string{root}, guardOpts(false, changed), fix.Mode{Pick: createsFile, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Files) != 0 {
		t.Errorf("a second --fix changes %d files", len(again.Files))
	}

	if r := fix.Write(out); len(r.NotWritten) != 0 || r.Failed {
		t.Fatalf("not written: %v", r.NotWritten)
	}
	disk, err := engine.Run([]string{root}, guardOpts(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(disk.Diagnostics) != 0 || disk.Projects[0].Guard == nil {
		t.Errorf("from disk after writing: %d findings, guard %+v", len(disk.Diagnostics), disk.Projects[0].Guard)
	}
}

// stubSession is a stand-in for mcp.shared.session of mcp 1.x: respond()
// asserts as the SDK does, and both record what they send.
const stubSession = `class RequestResponder:
    def __init__(self):
        self._completed = False
        self.sent = []

    async def respond(self, response):
        """Send the response."""
        assert not self._completed, "Request already responded to"
        self._completed = True
        self.sent.append(("respond", response))
        return "respond-result"

    async def cancel(self):
        """Cancel the request."""
        self._completed = True
        self.sent.append(("cancel", None))
        return "cancel-result"
`

const guardDriver = `import asyncio
import sys

if sys.argv[1] == "guarded":
    import mcp_respond_guard  # noqa: F401
from mcp.shared.session import RequestResponder as R


async def main():
    out = []
    r = R()  # answered, then a late cancel
    out += [await r.respond("a"), await r.cancel(), r.sent]
    r = R()  # cancelled, then the handler's late result: the crash without the guard
    out += [await r.cancel()]
    try:
        out += [await r.respond("late")]
    except AssertionError as e:
        out += ["AssertionError: %s" % e]
    out += [r.sent]
    r = R()  # a repeated cancel
    await r.cancel()
    out += [await r.cancel(), r.sent]
    r = R()  # keyword arguments pass through
    out += [await r.respond(response="kw"), r.sent]
    out += [R.respond.__name__, R.respond.__doc__, R.cancel.__name__, R.cancel.__doc__]
    print(repr(out))


asyncio.run(main())
`

// TestGuardModuleSemantics runs the module the guard fix writes against a
// stub RequestResponder (no mcp package, no network): respond() and cancel()
// return None at once when the request was answered and otherwise behave as
// the SDK's own methods, arguments, results and metadata included. The stub
// without the guard shows the crash the guard prevents.
func TestGuardModuleSemantics(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the recogniser tests (TestGuardFixEndToEnd) still cover the module's structure")
	}
	dir := testfs.Write(t, map[string]string{
		"mcp/__init__.py":        "",
		"mcp/shared/__init__.py": "",
		"mcp/shared/session.py":  stubSession,
		"mcp_respond_guard.py":   rules.GuardModule,
		"driver.py":              guardDriver,
	})
	run := func(mode string) string {
		cmd := exec.Command(py, "-B", "driver.py", mode)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PYTHONPATH=", "PYTHONNOUSERSITE=1")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("python3 driver.py %s: %v\n%s", mode, err, b)
		}
		return strings.TrimSpace(string(b))
	}
	const want = `['respond-result', None, [('respond', 'a')], 'cancel-result', None, [('cancel', None)], None, [('cancel', None)], 'respond-result', [('respond', 'kw')], 'respond', 'Send the response.', 'cancel', 'Cancel the request.']`
	if got := run("guarded"); got != want {
		t.Errorf("with the guard:\n got %s\nwant %s", got, want)
	}
	const unguarded = `['respond-result', 'cancel-result', [('respond', 'a'), ('cancel', None)], 'cancel-result', 'AssertionError: Request already responded to', [('cancel', None)], 'cancel-result', [('cancel', None), ('cancel', None)], 'respond-result', [('respond', 'kw')], 'respond', 'Send the response.', 'cancel', 'Cancel the request.']`
	if got := run("plain"); got != unguarded {
		t.Errorf("without the guard:\n got %s\nwant %s", got, unguarded)
	}
}

// TestGuardFixPlacement: the guard goes beside the server that serves the
// handlers, not beside an example's that sorts first, and only modules in
// that folder import it.
func TestGuardFixPlacement(t *testing.T) {
	got := guardEdits(t, map[string]string{
		"pyproject.toml":      "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.27,<2\"]\n",
		"examples/client.py":  "from mcp.server.fastmcp import FastMCP\n\ndemo = FastMCP(\"demo\")\n",
		"src/app/__init__.py": "",
		"src/app/server.py":   guardedServer,
	})
	want := []string{"src/app/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.", "src/app/server.py:from . import mcp_respond_guard  # noqa: F401  # isort: skip"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// guardEdits runs the guard fix on a project and returns its edits as
// "path:first line of the inserted text" (the import line for an import).
func guardEdits(t *testing.T, files map[string]string) []string {
	t.Helper()
	root := testfs.Write(t, files)
	res, err := engine.Run([]string{root}, guardOpts(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	var f *rules.Fix
	for i := range res.Diagnostics {
		if g := createsFile(&res.Diagnostics[i]); g != nil {
			f = g
		}
	}
	if f == nil {
		t.Fatal("no guard fix offered")
	}
	var got []string
	for _, e := range f.Edits {
		rel, _ := filepath.Rel(root, e.Path)
		got = append(got, filepath.ToSlash(rel)+":"+strings.SplitN(strings.TrimPrefix(e.New, "# Must stay the first import: mcp_respond_guard.py says why.\n"), "\n", 2)[0])
	}
	return got
}

// TestGuardFixProjectFolderIsAPackage: an __init__.py in the project's own
// folder (web-eval-agent) does not put the checkout folder's name in front
// of its modules' names: the import the fix writes is the one the code
// uses (from webEvalAgent.src... import), and it parses.
func TestGuardFixProjectFolderIsAPackage(t *testing.T) {
	got := guardEdits(t, map[string]string{
		"web-eval-agent/pyproject.toml":          "[project]\nname = \"evalagent\"\ndependencies = [\"mcp==1.6.0\"]\n",
		"web-eval-agent/__init__.py":             "",
		"web-eval-agent/evalagent/__init__.py":   "",
		"web-eval-agent/evalagent/mcp_server.py": "#!/usr/bin/env python3\n\n" + guardedServer,
	})
	want := []string{"web-eval-agent/evalagent/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.", "web-eval-agent/evalagent/mcp_server.py:from . import mcp_respond_guard  # noqa: F401  # isort: skip"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// registeringServer registers its tools on a parameter (wandb's
// register_tools(mcp_instance: FastMCP)): the handlers name no server.
const registeringServer = `import anyio
from mcp.server.fastmcp import FastMCP


def fetch() -> str:
    return "sunny"


def register_tools(mcp_instance: FastMCP) -> None:
    @mcp_instance.tool()
    async def forecast() -> str:
        return await anyio.to_thread.run_sync(fetch)


def create_server() -> FastMCP:
    mcp = FastMCP("weather")
    register_tools(mcp)
    return mcp


def cli() -> None:
    create_server().run()
`

// TestGuardFixPlacementRunningServer: with handlers registered on a
// parameter, the guard goes beside the module that builds the server and
// runs it, not beside a script that builds one only to list its tools and
// sorts first (wandb's scripts/validate_tools_live.py).
func TestGuardFixPlacementRunningServer(t *testing.T) {
	got := guardEdits(t, map[string]string{
		"pyproject.toml":          "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.27,<2\"]\n",
		"scripts/list_tools.py":   "from mcp.server.fastmcp import FastMCP\n\nfrom weather.server import register_tools\n\nmcp = FastMCP(\"list\")\nregister_tools(mcp)\nprint(mcp._tool_manager.list_tools())\n",
		"src/weather/__init__.py": "",
		"src/weather/server.py":   registeringServer,
	})
	want := []string{"src/weather/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.", "src/weather/server.py:from . import mcp_respond_guard  # noqa: F401  # isort: skip"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGuardFixPlacementEntryPackage: where servers of their own serve
// handlers in a demo folder too, the guard goes beside the server of the
// entry point's package first ([project.scripts]; jvm-mcp-server's demo/
// sorts before src/jvm_mcp_server/). The demo's server runs in a process of
// its own, which the package's guard does not protect: it gets a copy
// beside it (before, it got none, and the project's pin stayed unguarded).
func TestGuardFixPlacementEntryPackage(t *testing.T) {
	got := guardEdits(t, map[string]string{
		"pyproject.toml":          "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.27,<2\"]\n\n[project.scripts]\nweather = \"weather.server:main\"\n",
		"demo/demo_server.py":     guardedServer,
		"src/weather/__init__.py": "",
		"src/weather/server.py":   guardedServer + "\n\ndef main():\n    mcp.run()\n",
	})
	want := []string{"src/weather/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.", "src/weather/server.py:from weather import mcp_respond_guard  # noqa: F401  # isort: skip",
		"demo/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.", "demo/demo_server.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("edits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGuardedBelow127StaysError: the guard closes the cancel crash, not the
// transport-close crash below mcp 1.27.0 (issue 30). In a guarded project
// whose mcp can be below 1.27.0 MCP001 (and MCP105) stay errors, say that
// the guard covers only the cancel crash, and MCP001 offers the floor as
// its safe fix; where the lock or the pin keeps mcp at 1.27.0 or later the
// pin is a note.
func TestGuardedBelow127StaysError(t *testing.T) {
	const dir = "../testdata/rules/"
	cases := []struct {
		fixture string
		codes   []string
		want    string // "CODE:severity" of each finding, sorted, with --show-safe
		floor   bool   // the error offers a safe, complete floor edit to 1.27.0
	}{
		{"MCP001/guarded-exact-below-1.27", []string{"MCP001"}, "MCP001:error", true},
		{"MCP001/guarded-range-below-1.27", []string{"MCP001"}, "MCP001:error", true},
		{"MCP001/guarded-lock-below-1.27", []string{"MCP001"}, "MCP001:error MCP001:error", true},
		{"MCP001/guarded", []string{"MCP001"}, "MCP001:note", false},
		{"MCP001/guarded-lock-decides", []string{"MCP001"}, "MCP001:note MCP001:note", false},
		{"MCP105/guarded", []string{"MCP105"}, "MCP105:error", true},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			opts := engine.Options{Jobs: 2, ShowSafe: true}
			for _, code := range c.codes {
				opts.Rules = append(opts.Rules, rules.Lookup(code))
			}
			res, err := engine.Run([]string{dir + c.fixture}, opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			floor := false
			for _, d := range res.Diagnostics {
				got = append(got, d.Code+":"+d.Severity.String())
				if d.Severity == rules.SeverityNote {
					continue
				}
				if !strings.Contains(d.Message, "closes only the cancel crash") {
					t.Errorf("%s:%d: the message does not say the guard covers only the cancel crash: %s", d.Path, d.Start.Line, d.Message)
				}
				for _, f := range d.Fixes {
					if f.Applicability == rules.Safe && len(f.Edits) == 1 && strings.Contains(f.Edits[0].New, "1.27.0") && !f.Partial {
						floor = true
					}
					if createsFile(&rules.Diagnostic{Fixes: []rules.Fix{f}}) != nil {
						t.Errorf("%s: the guard is offered again in a guarded project", d.Code)
					}
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != c.want {
				t.Errorf("findings %v, want %s", got, c.want)
			}
			if floor != c.floor {
				t.Errorf("a safe, complete floor fix to 1.27.0: %v, want %v", floor, c.floor)
			}
		})
	}
}

// TestGuardAloneLeavesTheFloor: on a pin that admits mcp below 1.27.0, the
// guard alternative says it does not fix the transport-close crash, and
// applying it alone leaves MCP001 an error whose fix raises the floor
// (issue 30); --fix --unsafe-fixes then raises the floor and writes the
// guard, after which nothing is left.
func TestGuardAloneLeavesTheFloor(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.20,<2\"]\n",
		"app/__init__.py": "",
		"app/server.py":   guardedServer,
	})
	before, err := engine.Run([]string{root}, guardOpts(false, nil))
	if err != nil {
		t.Fatal(err)
	}
	var guard *rules.Fix
	for i := range before.Diagnostics {
		if g := createsFile(&before.Diagnostics[i]); g != nil {
			guard = g
		}
	}
	if guard == nil {
		t.Fatal("no guard fix offered")
	}
	if !strings.Contains(guard.Message, "does not fix the crash at transport close below 1.27.0") || !guard.Partial {
		t.Errorf("guard alternative (partial %v): %s", guard.Partial, guard.Message)
	}
	out, err := fix.Run([]string{root}, guardOpts(false, nil), fix.Mode{Pick: createsFile, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) > 0 {
		t.Fatalf("fix failures: %+v", out.Failures)
	}
	var left []string
	for _, d := range out.Result.Diagnostics {
		left = append(left, d.Code+":"+d.Severity.String())
		if d.Code != "MCP001" {
			continue
		}
		if !strings.Contains(d.Message, "closes only the cancel crash") {
			t.Errorf("MCP001 after the guard: %s", d.Message)
		}
		if f := fix.Choose(&d, false); f == nil || len(f.Edits) != 1 || f.Edits[0].New != ">=1.27.0,<2" {
			t.Errorf("MCP001 after the guard: safe fix %+v, want the floor >=1.27.0,<2", f)
		}
	}
	if strings.Join(left, " ") != "MCP001:error" {
		t.Errorf("after the guard alone: %v, want MCP001:error only (MCP101 is guarded)", left)
	}

	all, err := fix.Run([]string{root}, guardOpts(false, nil), fix.Mode{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Failures) > 0 || len(all.Result.Diagnostics) != 0 {
		t.Errorf("--fix --unsafe-fixes: failures %+v, left %+v", all.Failures, all.Result.Diagnostics)
	}
}

// TestGuardFixGuardsEveryServer: --fix --unsafe-fixes puts the guard where
// it protects each server it claims to (a guard covers only the processes
// that import it). Servers in two folders of one package import one guard,
// written in their common package (from .. import); servers in two folders
// of no common package (no __init__.py: each a script's folder, whatever
// its name) get a guard each, imported by its bare name, and so does a
// module in the project's own folder, whatever __init__.py it holds (its
// name is the checkout's). A module that runs a server mcplint does not
// see constructed (FastMCP.from_fastapi) gets the import too. After the fix
// nothing is left (MCP001 and both MCP101 are
// notes), and fixing again changes nothing.
func TestGuardFixGuardsEveryServer(t *testing.T) {
	const pin = "[project]\nname = \"two\"\ndependencies = [\"mcp>=1.27,<2\"]\n"
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"one package", map[string]string{"pyproject.toml": pin, "app/__init__.py": "", "app/a/__init__.py": "", "app/b/__init__.py": "",
			"app/a/server.py": guardedServer, "app/b/server.py": guardedServer},
			[]string{"app/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"app/a/server.py:from .. import mcp_respond_guard  # noqa: F401  # isort: skip",
				"app/b/server.py:from .. import mcp_respond_guard  # noqa: F401  # isort: skip"}},
		{"folders whose names cannot be imported", map[string]string{"pyproject.toml": pin, "01_first/server.py": guardedServer, "02-second/server.py": guardedServer},
			[]string{"01_first/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"01_first/server.py:import mcp_respond_guard  # noqa: F401  # isort: skip",
				"02-second/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"02-second/server.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}},
		{"a module runs a server whose construction is not a site", map[string]string{
			"pyproject.toml": "[project]\nname = \"two\"\ndependencies = [\"mcp>=1.27,<2\", \"fastmcp>=2.12,<2.13\"]\n",
			"server.py":      guardedServer,
			"mcp_app.py": "from fastapi import FastAPI\nfrom fastmcp import FastMCP\n\napp = FastAPI()\nmcp = FastMCP.from_fastapi(app=app, name=\"products\")\n\n" +
				"if __name__ == \"__main__\":\n    mcp.run()\n"},
			[]string{"mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"server.py:import mcp_respond_guard  # noqa: F401  # isort: skip",
				"mcp_app.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}},
		{"a project folder with an __init__.py, named like a package", map[string]string{
			"a/pyproject.toml": pin, "a/__init__.py": "", "a/server.py": guardedServer},
			[]string{"a/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"a/server.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}},
		{"a server module two starts load keeps the import", map[string]string{"pyproject.toml": pin,
			"lib.py":   "import anyio\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"lib\")\n\n\n@mcp.tool()\nasync def forecast() -> str:\n    return await anyio.to_thread.run_sync(str)\n",
			"run_a.py": "from mcp.server.fastmcp import FastMCP\n\nfrom lib import mcp\n\nother = FastMCP(\"other\")\n\nif __name__ == \"__main__\":\n    mcp.run()\n",
			"run_b.py": "from lib import mcp\n\nif __name__ == \"__main__\":\n    mcp.run()\n"},
			[]string{"mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"lib.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}},
		{"two folders", map[string]string{"pyproject.toml": pin, "a/server.py": guardedServer, "b/server.py": guardedServer},
			[]string{"a/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"a/server.py:import mcp_respond_guard  # noqa: F401  # isort: skip",
				"b/mcp_respond_guard.py:\"\"\"Guard for mcp 1.x: a request is answered at most once.",
				"b/server.py:import mcp_respond_guard  # noqa: F401  # isort: skip"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := guardEdits(t, c.files); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("edits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			root := testfs.Write(t, c.files)
			out, err := fix.Run([]string{root}, guardOpts(false, nil), fix.Mode{Pick: createsFile, Rounds: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Failures) > 0 || len(out.Result.Diagnostics) != 0 {
				t.Fatalf("after the guard fix: failures %+v, left %+v", out.Failures, out.Result.Diagnostics)
			}
			changed := map[string][]byte{}
			for _, f := range out.Files {
				changed[f.Path] = f.New
			}
			again, err := fix.Run([]string{root}, guardOpts(false, changed), fix.Mode{Unsafe: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Files) != 0 {
				t.Errorf("fixing again changes %d files", len(again.Files))
			}
		})
	}
}

// guardImportLine matches the import the guard fix writes: import NAME,
// from PACKAGE import mcp_respond_guard, or from DOTS import mcp_respond_guard.
var guardImportLine = regexp.MustCompile(`(?m)^(?:import ([\w.]+)|from ([\w.]+|\.+) import mcp_respond_guard)  # noqa: F401  # isort: skip\r?$`)

// entryModules returns the modules a pyproject.toml's [project.scripts]
// entry points name ("pkg.server" of "pkg.server:main").
func entryModules(pyproject []byte) []string {
	var out []string
	inScripts := false
	for _, line := range strings.Split(string(pyproject), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inScripts = line == "[project.scripts]"
			continue
		}
		if m := regexp.MustCompile(`=\s*"([\w.]+):`).FindStringSubmatch(line); inScripts && m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// TestGuardImportsResolve resolves every guard import a fixture's golden
// holds against the fixture's layout, as Python would in the process that
// starts the server: sys.path holds the project's folder and its src/, and
// the module's own folder unless an entry point ([project.scripts]) runs
// it; an absolute name must lead from one of those to the guard module the
// same fix alternative writes; a relative one needs the module to be in a
// package below the project's folder or src/ (namespace packages
// included) deep enough, with the guard module at the folder it names.
func TestGuardImportsResolve(t *testing.T) {
	goldens, err := filepath.Glob("../testdata/rules/*/*")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, fixture := range goldens {
		if st, err := os.Stat(fixture); err != nil || !st.IsDir() {
			continue
		}
		err := filepath.WalkDir(fixture, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".golden") || !strings.Contains(p, ".py.fix") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m := guardImportLine.FindSubmatch(src)
			if m == nil {
				return nil
			}
			alt := p[strings.LastIndex(p, ".fix"):] // ".fixN.golden"
			mod := filepath.ToSlash(strings.TrimSuffix(p, alt))
			if strings.HasSuffix(mod, "/"+rules.GuardModuleName+".py") {
				return nil
			}
			guardAt := func(dir string) bool {
				_, err := os.Stat(filepath.FromSlash(dir + "/" + rules.GuardModuleName + ".py" + alt))
				return err == nil
			}
			// The project's folder: the nearest above the module with a
			// dependency file, within the fixture.
			proj := path.Dir(mod)
			for ; proj != filepath.ToSlash(fixture) && len(proj) > len(fixture); proj = path.Dir(proj) {
				if hasAny(proj, "pyproject.toml", "requirements.txt", "setup.py", "setup.cfg") {
					break
				}
			}
			pyproject, _ := os.ReadFile(filepath.FromSlash(proj + "/pyproject.toml"))
			entry := false
			for _, e := range entryModules(pyproject) {
				rel := strings.ReplaceAll(e, ".", "/")
				entry = entry || strings.HasSuffix(mod, "/"+rel+".py") || strings.HasSuffix(mod, "/"+rel+"/__init__.py")
			}
			roots := []string{proj, proj + "/src"}
			if !entry {
				roots = append(roots, path.Dir(mod))
			}
			ok := false
			switch {
			case strings.HasPrefix(string(m[2]), "."):
				up := len(m[2]) - 1
				for _, r := range roots[:2] {
					rel := strings.TrimPrefix(path.Dir(mod), r+"/")
					if rel == path.Dir(mod) || !importableDots(rel) || up >= len(strings.Split(rel, "/")) {
						continue
					}
					dir := path.Dir(mod)
					for i := 0; i < up; i++ {
						dir = path.Dir(dir)
					}
					ok = ok || guardAt(dir)
				}
			default:
				name := string(m[1])
				if len(m[2]) > 0 {
					name = string(m[2]) + "." + rules.GuardModuleName
				}
				for _, r := range roots {
					ok = ok || guardAt(path.Dir(r+"/"+strings.ReplaceAll(name, ".", "/")))
				}
			}
			checked++
			if !ok {
				t.Errorf("%s: %q does not resolve to a guard module the fix writes (sys.path: %v)", p, m[0], roots)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no guard import found in the fixtures' goldens")
	}
	t.Logf("resolved %d guard imports", checked)
}

func hasAny(dir string, names ...string) bool {
	for _, n := range names {
		if _, err := os.Stat(filepath.FromSlash(dir + "/" + n)); err == nil {
			return true
		}
	}
	return false
}

// importableDots reports whether a slash path is a dotted package name.
func importableDots(rel string) bool {
	return regexp.MustCompile(`^[A-Za-z_]\w*(/[A-Za-z_]\w*)*$`).MatchString(rel)
}
