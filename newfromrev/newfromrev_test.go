package newfromrev

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
)

func TestParsePatch(t *testing.T) {
	patch := `diff --git a/src/app.py b/src/app.py
index 1111111..2222222 100644
--- a/src/app.py
+++ b/src/app.py
@@ -3,0 +4,2 @@ def f():
+    x = 1
+    y = 2
@@ -10 +12 @@ def g():
-    old
+    new
@@ -20,3 +21,0 @@ def h():
-    gone
-    gone
-    gone
diff --git a/new.py b/new.py
new file mode 100644
--- /dev/null
+++ b/new.py
@@ -0,0 +1,3 @@
+a
+b
+c
diff --git a/deleted.py b/deleted.py
deleted file mode 100644
--- a/deleted.py
+++ /dev/null
@@ -1 +0,0 @@
-x
--- "a/we ird.py"
+++ "b/we\tird.py"
@@ -1 +1 @@
-x
+y
--- plain.txt	2024-01-01 10:00:00
+++ plain.txt	2024-01-02 10:00:00
@@ -5,2 +5,2 @@
-a
+b
`
	base := t.TempDir()
	c, err := ParsePatch(strings.NewReader(patch), base)
	if err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { return filepath.Join(base, p) }
	var files []string
	for _, f := range c.Files() {
		rel, _ := filepath.Rel(base, f)
		files = append(files, filepath.ToSlash(rel))
	}
	if got := strings.Join(files, ","); got != "new.py,plain.txt,src/app.py,we\tird.py" {
		t.Errorf("files = %q", got)
	}
	cases := []struct {
		file   string
		lo, hi int
		want   bool
	}{
		{"src/app.py", 1, 3, false},
		{"src/app.py", 4, 4, true},
		{"src/app.py", 5, 11, true},
		{"src/app.py", 6, 11, false},
		{"src/app.py", 12, 12, true},
		{"src/app.py", 13, 20, false},
		{"src/app.py", 21, 21, true}, // the line before a deletion
		{"new.py", 100, 200, true},
		{"plain.txt", 6, 6, true},
		{"plain.txt", 7, 9, false},
		{"deleted.py", 1, 1, false},
		{"other.py", 1, 100, false},
	}
	for _, cs := range cases {
		if got := c.Touches(abs(cs.file), cs.lo, cs.hi); got != cs.want {
			t.Errorf("Touches(%s, %d, %d) = %v, want %v", cs.file, cs.lo, cs.hi, got, cs.want)
		}
	}
	if _, err := ParsePatch(strings.NewReader("--- a/x\n+++ b/x\n@@ -1 +zz @@\n"), base); err == nil {
		t.Error("bad hunk header: no error")
	}
}

const handler = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


def work():
    return 1


@mcp.tool()
async def slow() -> str:
    return "x"
`

// other has an MCP103-free, MCP104 finding that never changes.
const other = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("y")


@mcp.tool()
async def other() -> str:
    try:
        await anyio.sleep(1)
    except BaseException:
        pass
    return "y"
`

func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func findings(t *testing.T, dir string, procs ...engine.Processor) []string {
	t.Helper()
	res, err := engine.Run([]string{dir}, engine.Options{Processors: procs})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range res.Diagnostics {
		rel, _ := filepath.Rel(dir, d.Path)
		out = append(out, filepath.ToSlash(rel)+":"+strconv.Itoa(d.Start.Line)+" "+d.Code)
	}
	sort.Strings(out)
	return out
}

func TestFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test")
	}
	dir := t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, map[string]string{
		"requirements.txt": "anyio>=4\nmcp==1.20.0\n",
		"server.py":        handler,
		"other.py":         other,
	})
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-q", "-m", "base")
	base := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))

	// The handler's body changes so that it swallows the cancel: the finding
	// sits on a changed line. The requirement line does not change.
	changed := strings.Replace(handler, "    return \"x\"\n", "    try:\n        await anyio.sleep(1)\n    except BaseException:\n        pass\n    return \"x\"\n", 1)
	writeFiles(t, dir, map[string]string{"server.py": changed})
	gitCmd(t, dir, "commit", "-q", "-am", "change the handler")

	all := findings(t, dir)
	if strings.Join(all, " ") != "other.py:11 MCP104 requirements.txt:2 MCP001 server.py:15 MCP104" {
		t.Fatalf("without a filter: %v", all)
	}
	c, err := FromRev(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	got := findings(t, dir, NewFilter("new-from-rev", c))
	if strings.Join(got, " ") != "server.py:15 MCP104" {
		t.Errorf("new since %s: %v", base[:7], got)
	}

	// A finding on an unchanged line of a changed function is new: the
	// handler had the swallowing except already, and only a later line of
	// its body changes now.
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "mark")
	mark := strings.TrimSpace(gitCmd(t, dir, "rev-parse", "HEAD"))
	writeFiles(t, dir, map[string]string{"server.py": strings.Replace(changed, "    return \"x\"\n", "    return \"changed\"\n", 1)})
	c, err = FromRev(dir, mark)
	if err != nil {
		t.Fatal(err)
	}
	got = findings(t, dir, NewFilter("new-from-rev", c))
	if strings.Join(got, " ") != "server.py:15 MCP104" {
		t.Errorf("unchanged line of a changed function: %v", got)
	}

	// The dependency line changing reports it; an untracked file counts as new.
	writeFiles(t, dir, map[string]string{"requirements.txt": "anyio>=4\nmcp==1.21.0\n", "server.py": changed, "new/extra.py": other})
	c, err = FromRev(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	got = findings(t, dir, NewFilter("new-from-rev", c))
	if strings.Join(got, " ") != "new/extra.py:11 MCP104 requirements.txt:2 MCP001" {
		t.Errorf("dependency change and untracked file: %v", got)
	}

	// Nothing changed since HEAD: nothing is reported.
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-q", "-m", "more")
	c, err = FromRev(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if got = findings(t, dir, NewFilter("new-from-rev", c)); len(got) != 0 {
		t.Errorf("untouched tree: %v", got)
	}
}

func TestFromRevErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := FromRev(dir, "HEAD"); err == nil || !strings.Contains(err.Error(), "needs a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
	gitCmd(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, map[string]string{"a.py": "x = 1\n"})
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-q", "-m", "one")
	writeFiles(t, dir, map[string]string{"a.py": "x = 2\n"})
	gitCmd(t, dir, "commit", "-q", "-am", "two")
	if _, err := FromRev(dir, "nope"); err == nil || !strings.Contains(err.Error(), `unknown revision "nope"`) {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := FromRev(dir, "--output=x"); err == nil {
		t.Error("an option as revision: no error")
	}

	// A shallow clone without the base says to fetch it.
	clone := filepath.Join(t.TempDir(), "clone")
	gitCmd(t, dir, "clone", "-q", "--depth=1", "file://"+dir, clone)
	first := strings.TrimSpace(gitCmd(t, dir, "rev-list", "--max-parents=0", "HEAD"))
	_, err := FromRev(clone, first)
	if err == nil || !strings.Contains(err.Error(), "shallow clone") || !strings.Contains(err.Error(), "fetch") {
		t.Errorf("shallow clone: %v", err)
	}
}

// The fetch command a missing revision's error suggests creates the ref the
// revision names (`git fetch origin origin/main` fetches nothing).
func TestFetchHint(t *testing.T) {
	for _, tc := range []struct {
		rev     string
		remotes []string
		shallow bool
		want    string
	}{
		{"origin/main", []string{"origin"}, false, "git fetch origin +refs/heads/main:refs/remotes/origin/main"},
		{"refs/remotes/upstream/release/1.x", []string{"origin", "upstream"}, true, "git fetch upstream +refs/heads/release/1.x:refs/remotes/upstream/release/1.x"},
		{"main", []string{"origin"}, false, "git fetch origin +refs/heads/main:refs/remotes/origin/main and give --new-from-rev origin/main"},
		{"0123456789abcdef0123456789abcdef01234567", nil, true, "git fetch origin 0123456789abcdef0123456789abcdef01234567"},
		{"HEAD~3", []string{"origin"}, true, "git fetch --deepen=N"},
	} {
		if got := FetchHint(tc.rev, tc.remotes, tc.shallow); !strings.Contains(got, tc.want) {
			t.Errorf("FetchHint(%q) = %q, want it to contain %q", tc.rev, got, tc.want)
		}
	}
}

// git runs as mcplint's other git commands do (workspace.Git): a
// repository's core.fsmonitor, a command git would run on `git diff` and
// `git ls-files`, is not run.
func TestFromRevRunsNoFSMonitor(t *testing.T) {
	dir := t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	writeFiles(t, dir, map[string]string{"a.py": "x = 1\n"})
	gitCmd(t, dir, "add", ".")
	gitCmd(t, dir, "commit", "-q", "-m", "one")
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "fsmonitor.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch '"+marker+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, dir, "config", "core.fsmonitor", hook)
	writeFiles(t, dir, map[string]string{"a.py": "x = 2\n", "b.py": "y = 1\n"})
	c, err := FromRev(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range c.Files() {
		names = append(names, filepath.Base(f))
	}
	if strings.Join(names, " ") != "a.py b.py" {
		t.Fatalf("changed files %q, want a.py and the untracked b.py", c.Files())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("git ran the repository's core.fsmonitor command")
	}
}
