package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const crashyServer = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


def work(x):
    return x * 2


@mcp.tool()
async def double(x: int) -> int:
    y = await anyio.to_thread.run_sync(work, x)
    return y
`

// TestPreCommitPythonHook installs the default hooks of
// .pre-commit-hooks.yaml the way pre-commit installs a `language: python`
// hook (a new virtual environment, then `pip install . ADDITIONAL_DEPENDENCIES`
// in this repository, offline here, with the wheel of the pinned version),
// and runs each hook's entry with the changed files as pre-commit would:
// the environment's bin first on PATH, in the checked repository's top.
func TestPreCommitPythonHook(t *testing.T) {
	rel := release(t)
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Language    string
		AdditionalDependencies []string `yaml:"additional_dependencies"`
	}
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	entries := map[string]string{}
	var deps []string
	for _, h := range hooks {
		if h.Language == "python" {
			entries[h.ID] = h.Entry
			deps = h.AdditionalDependencies
		}
	}
	if entries["mcplint"] == "" || entries["mcplint-fix"] == "" || len(deps) != 1 {
		t.Fatalf("python hooks %v, additional_dependencies %v", entries, deps)
	}
	pin := regexp.MustCompile(`^mcplint==(\d+\.\d+\.\d+)$`).FindStringSubmatch(deps[0])
	if pin == nil {
		t.Fatalf("additional_dependencies %v is not pinned to a version", deps)
	}

	// The index: the wheel of the pinned version, built from the release's
	// binary.
	index := t.TempDir()
	if out, err := exec.Command("tar", "-C", index, "-xzf", filepath.Join(rel, "mcplint_"+relVersion+"_"+runtime.GOOS+"_"+runtime.GOARCH+".tar.gz"), "mcplint").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	if out, err := exec.Command(python(t), "build_wheel.py", "--binary", filepath.Join(index, "mcplint"), "--version", pin[1], "--out", index).CombinedOutput(); err != nil {
		t.Fatalf("build_wheel.py: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(index, "mcplint"))

	before := listing(t, filepath.Join(root, "scripts"))
	bin := venv(t)
	pip(t, bin, root, append([]string{"--find-links", index, "."}, deps...)...)
	if after := listing(t, filepath.Join(root, "scripts")); after != before {
		t.Errorf("pip install . wrote into the repository:\nbefore %s\nafter  %s", before, after)
	}

	// The checked repository.
	repo := t.TempDir()
	for p, s := range map[string]string{
		"proj/requirements.txt": "anyio>=4\n",
		"proj/server.py":        crashyServer,
		"proj/clean.py":         "x = 1\n",
	} {
		os.MkdirAll(filepath.Join(repo, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte(s), 0o644)
	}
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// pre-commit passes staged files: under CI (CI=true turns --tracked-only
	// on) files git does not track are not read.
	if out, err := exec.Command("git", "-C", repo, "add", "-A").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	env := append(pipEnv(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "VIRTUAL_ENV="+filepath.Dir(bin))
	run := func(id string, files ...string) (string, int) {
		t.Helper()
		args := append(strings.Fields(entries[id]), files...)
		path, err := lookPathIn(args[0], bin)
		if err != nil {
			t.Fatal(err)
		}
		return mcplintOutput(t, repo, env, path, args[1:]...)
	}

	if out, code := run("mcplint", "proj/clean.py"); code != 0 {
		t.Errorf("hook mcplint on a clean file: exit %d\n%s", code, out)
	}
	if out, code := run("mcplint", "proj/server.py", "proj/requirements.txt"); code != 1 || !strings.Contains(out, "proj/server.py:13:15: MCP101") {
		t.Errorf("hook mcplint on the crashing file: exit %d\n%s", code, out)
	}
	if out, code := run("mcplint-fix", "proj/server.py"); code != 1 || !strings.Contains(out, "Fixed") {
		t.Errorf("hook mcplint-fix: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "proj/server.py")); !strings.Contains(string(b), "checkpoint_if_cancelled") {
		t.Errorf("mcplint-fix wrote no fix:\n%s", b)
	}
	if out, code := run("mcplint-fix", "proj/server.py"); code != 0 {
		t.Errorf("hook mcplint-fix on the fixed file: exit %d\n%s", code, out)
	}
}

// lookPathIn finds a command as the hook's PATH would: bin first.
func lookPathIn(name, bin string) (string, error) {
	for _, ext := range []string{"", ".exe"} {
		if p := filepath.Join(bin, name+ext); fileExists(p) {
			return p, nil
		}
	}
	return exec.LookPath(name)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// listing names a folder's entries, to see that nothing was written there.
func listing(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		if e.Name() != "__pycache__" { // Python's bytecode cache of the backend (ignored by git)
			names = append(names, e.Name())
		}
	}
	return strings.Join(names, " ")
}
