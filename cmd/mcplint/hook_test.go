package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPreCommitHooksFile checks .pre-commit-hooks.yaml the way
// `pre-commit try-repo` would read it: required keys, the four hooks (the
// default ones install the wheel, the -go ones build with Go), the version
// pins, and the files pattern.
func TestPreCommitHooksFile(t *testing.T) {
	b, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []map[string]any
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	byID := map[string]map[string]any{}
	for _, h := range hooks {
		for _, k := range []string{"id", "name", "entry", "language"} { // pre-commit's required keys
			if s, _ := h[k].(string); s == "" {
				t.Errorf("hook %v lacks %q", h["id"], k)
			}
		}
		byID[h["id"].(string)] = h
	}
	language := map[string]string{"mcplint": "python", "mcplint-fix": "python", "mcplint-go": "golang", "mcplint-fix-go": "golang"}
	if len(byID) != len(language) {
		t.Errorf("hooks %v, want %v", byID, language)
	}
	pins := map[string]bool{}
	for id, lang := range language {
		h := byID[id]
		if h == nil {
			t.Fatalf("no hook %s", id)
		}
		if h["language"] != lang || h["require_serial"] != true {
			t.Errorf("hook %v: language %v, require_serial %v", id, h["language"], h["require_serial"])
		}
		deps, _ := h["additional_dependencies"].([]any)
		if lang == "python" {
			// Pinned like ruff-pre-commit: the tag's own version.
			if len(deps) != 1 || !regexp.MustCompile(`^mcplint==\d+\.\d+\.\d+$`).MatchString(fmt.Sprint(deps[0])) {
				t.Errorf("hook %s: additional_dependencies %v, want [mcplint==X.Y.Z]", id, deps)
			} else {
				pins[deps[0].(string)] = true
			}
		} else if len(deps) != 0 {
			t.Errorf("hook %s: additional_dependencies %v", id, deps)
		}
		if !strings.HasPrefix(h["entry"].(string), "mcplint hook") {
			t.Errorf("hook %v entry %q does not run `mcplint hook`", id, h["entry"])
		}
		if strings.Contains(id, "fix") != strings.Contains(h["entry"].(string), "--fix") {
			t.Errorf("hook %s entry %q", id, h["entry"])
		}
		re, err := regexp.Compile(h["files"].(string))
		if err != nil {
			t.Fatalf("files: %v", err)
		}
		for _, p := range []string{"server.py", "pkg/types.pyi", "pyproject.toml", "a/setup.cfg", "setup.py", "Pipfile", "Pipfile.lock", "uv.lock", "poetry.lock", "pdm.lock", "pylock.toml", "requirements.txt", "requirements/dev-requirements.in", "constraints.txt"} {
			if !re.MatchString(p) {
				t.Errorf("hook %v does not match %s", id, p)
			}
		}
		for _, p := range []string{"README.md", "x.pyc", "package.json", "pyproject.toml.bak"} {
			if re.MatchString(p) {
				t.Errorf("hook %v matches %s", id, p)
			}
		}
	}
	if len(pins) != 1 {
		t.Errorf("the python hooks pin different versions: %v", pins)
	}
}

func write(t *testing.T, files map[string]string) {
	t.Helper()
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestProjectRoots(t *testing.T) {
	t.Chdir(t.TempDir())
	write(t, map[string]string{
		".git/HEAD":                     "ref: refs/heads/main\n",
		"pyproject.toml":                "[project]\nname = \"top\"\n",
		"services/api/requirements.txt": "mcp==1.26.0\n",
		"services/api/app/server.py":    "",
		"services/worker/tasks.py":      "",
		"tools/script.py":               "",
		"vendored/lib/.git/HEAD":        "",
		"vendored/lib/x.py":             "",
	})
	for file, want := range map[string]string{
		"services/api/app/server.py":    "services/api",
		"services/api/requirements.txt": "services/api",
		"services/worker/tasks.py":      ".",
		"tools/script.py":               ".",
		"vendored/lib/x.py":             "vendored/lib",
		"pyproject.toml":                ".",
	} {
		if got := projectRoot(file); got != want {
			t.Errorf("projectRoot(%s) = %q, want %q", file, got, want)
		}
	}
	got := projectRoots([]string{"services/api/app/server.py", "services/api/requirements.txt", "vendored/lib/x.py"})
	if strings.Join(got, ",") != "services/api,vendored/lib" {
		t.Errorf("projectRoots = %q", got)
	}
	// A root inside another is analysed as part of it.
	got = projectRoots([]string{"tools/script.py", "services/api/app/server.py"})
	if strings.Join(got, ",") != "." {
		t.Errorf("nested roots = %q, want .", got)
	}
}

// hook runs `mcplint hook ARGS...` and returns its exit code and stdout.
func hook(t *testing.T, args ...string) (int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"hook", "--no-color"}, args...))
	err := root.Execute()
	var ec exitCode
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ec):
		return ec.code, out.String()
	}
	t.Fatalf("hook %v: %v", args, err)
	return 0, ""
}

const crashy = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


def work(x):
    return x * 2


@mcp.tool()
async def double(x: int) -> int:
    y = await anyio.to_thread.run_sync(work, x)
    return y
`

func TestHookReportsGivenFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	write(t, map[string]string{
		".git/HEAD":           "",
		"proj/pyproject.toml": "[project]\nname = \"p\"\ndependencies = [\"anyio\"]\n",
		"proj/server.py":      crashy,
		"proj/other.py":       "from mcp.server.fastmcp import FastMCP\n",
	})
	if code, out := hook(t); code != 0 || out != "" {
		t.Errorf("no files: exit %d, %q", code, out)
	}
	if code, out := hook(t, "proj/other.py"); code != 0 {
		t.Errorf("a clean file of a project with findings elsewhere: exit %d\n%s", code, out)
	}
	code, out := hook(t, "proj/server.py")
	if code != 1 || !strings.Contains(out, "proj/server.py:13:15: MCP") {
		t.Errorf("hook on the crashing file: exit %d\n%s", code, out)
	}
	// The fix hook exits 1 when it changed a file, then 0 once fixed.
	if code, out := hook(t, "--fix", "proj/server.py"); code != 1 || !strings.Contains(out, "Fixed") {
		t.Errorf("fix hook: exit %d\n%s", code, out)
	}
	b, _ := os.ReadFile("proj/server.py")
	if !strings.Contains(string(b), "checkpoint") {
		t.Errorf("fix not written:\n%s", b)
	}
	if code, out := hook(t, "--fix", "proj/server.py"); code != 0 {
		t.Errorf("fix hook on a fixed file: exit %d\n%s", code, out)
	}
}

// A file outside the working directory and outside any repository is its
// own project: the search for a dependency file does not go up to a
// requirements.txt in / or the home folder (the hook then walked all of it).
func TestProjectRootOutsideAnyRepository(t *testing.T) {
	outer := t.TempDir()
	for name, src := range map[string]string{"requirements.txt": "mcp==1.20.0\n", "sub/tool.py": "", "repo/.git/HEAD": "", "repo/requirements.txt": "", "repo/pkg/x.py": ""} {
		p := filepath.Join(outer, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir())
	for file, want := range map[string]string{
		filepath.Join(outer, "sub", "tool.py"):   filepath.ToSlash(filepath.Join(outer, "sub")),
		filepath.Join(outer, "repo/pkg/x.py"):    filepath.ToSlash(filepath.Join(outer, "repo")), // inside a repository: up to its top
		filepath.Join(outer, "requirements.txt"): filepath.ToSlash(outer),
	} {
		if got := projectRoot(file); got != want {
			t.Errorf("projectRoot(%s) = %q, want %q", file, got, want)
		}
	}
}
