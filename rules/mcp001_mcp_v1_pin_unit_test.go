package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/deps"
)

// runDepRule loads files (name -> contents) as one project in a temporary
// folder and runs rule r on it directly.
func runDepRule(t *testing.T, r *Rule, files map[string]string) ([]Diagnostic, *deps.Project) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.ToSlash(p))
	}
	proj, errs := deps.Load(filepath.ToSlash(dir), paths, deps.Options{})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	var got []Diagnostic
	r.Run(NewPass(r, dir, proj, nil, nil, func(d Diagnostic) { got = append(got, d) }))
	return got, proj
}

// Pipfile.lock is JSON (no comments for # want): checked here.
func TestMCP001PipfileLock(t *testing.T) {
	lock := `{
    "_meta": {"hash": {"sha256": "x"}},
    "default": {
        "mcp": {"hashes": [], "version": "==1.26.0"},
        "anyio": {"version": "==4.9.0"}
    }
}`
	got, _ := runDepRule(t, mcp001, map[string]string{"Pipfile.lock": lock, "Pipfile": "[packages]\nmcp = \">=2\"\n"})
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(got), got)
	}
	d := got[0]
	if d.Start.Line != 4 || lock[d.Start.Offset:d.End.Offset] != `"==1.26.0"` || d.Anchor != "mcp" {
		t.Errorf("location %+v anchor %q", d.Location, d.Anchor)
	}
	for _, want := range []string{"mcp 1.26.0 locked in Pipfile.lock", "below 1.27.0", "re-lock", "stale", "declares >=2"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message lacks %q: %s", want, d.Message)
		}
	}
	if len(d.Fixes) != 1 || d.Fixes[0].Applicability != DisplayOnly || len(d.Fixes[0].Edits) != 0 {
		t.Errorf("a lock finding gets advice only: %+v", d.Fixes)
	}
	if d.AnchorStart != strings.Index(lock, `        "mcp"`) || lock[d.AnchorEnd] != '\n' {
		t.Errorf("anchor range %d-%d", d.AnchorStart, d.AnchorEnd)
	}
}

func TestMCP001Direct(t *testing.T) {
	src := "mcp>=1.20,<2  # x\nmcp>=1.20\nmcp==1.27.1\nmcp<1.3\n"
	got, proj := runDepRule(t, mcp001, map[string]string{"requirements.txt": src})
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3: %+v", len(got), got)
	}
	first := got[0]
	if first.Start.Line != 1 || src[first.Start.Offset:first.End.Offset] != "mcp>=1.20,<2" {
		t.Errorf("location %+v", first.Location)
	}
	if len(first.Fixes) != 2 || first.Fixes[0].Applicability != Unsafe || first.Fixes[0].Edits[0].New != ">=2,<3" ||
		!strings.Contains(first.Fixes[0].Message, "breaking migration") || !strings.Contains(first.Fixes[1].Message, "mcp>=1.27.0,<2") {
		t.Errorf("fixes %+v", first.Fixes)
	}
	// 1.27.1 is past the transport-close fix: no floor advice, and the
	// message does not name that crash.
	if len(got[1].Fixes) != 1 || strings.Contains(got[1].Message, "1.27.0") {
		t.Errorf("==1.27.1: %s %+v", got[1].Message, got[1].Fixes)
	}
	if !strings.Contains(got[2].Message, "not supported") || strings.Contains(got[2].Message, "below 1.12.3") {
		t.Errorf("<1.3: %s", got[2].Message)
	}
	path, start, end, text, ok := proj.FloorEdit("mcp", "1.27.0")
	if !ok || !strings.HasSuffix(path, "requirements.txt") || src[start:end] != ">=1.20,<2" || text != ">=1.27.0,<2" {
		t.Errorf("FloorEdit = %s %d %d %q %v", path, start, end, text, ok)
	}
}

func TestMCP002Direct(t *testing.T) {
	src := "[project]\ndependencies = [\"fastmcp>=2.14,<3\", \"fastmcp-slim==3.4.7\", \"fastmcp>=3\"]\n"
	got, _ := runDepRule(t, mcp002, map[string]string{"pyproject.toml": src})
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(got), got)
	}
	if strings.Contains(got[0].Message, "worker thread") || !strings.Contains(got[0].Message, "Server.run()") {
		t.Errorf("fastmcp 2.14: %s", got[0].Message)
	}
	if !strings.Contains(got[1].Message, "worker thread") || got[1].Fixes[0].Edits[0].New != ">=4,<5" || got[1].Fixes[0].Applicability != Unsafe {
		t.Errorf("fastmcp-slim 3.4.7: %s %+v", got[1].Message, got[1].Fixes)
	}
}

// fastmcp and fastmcp-slim locked at one version are one decision: one
// finding, on the package the manifest declares, naming the other.
func TestMCP002LockTwins(t *testing.T) {
	lock := "[[package]]\nname = \"fastmcp\"\nversion = \"3.4.7\"\n\n[[package]]\nname = \"fastmcp-slim\"\nversion = \"3.4.7\"\n"
	for _, c := range []struct{ declared, kept, other string }{
		{"fastmcp>=3,<4", "fastmcp", "fastmcp-slim"},
		{"fastmcp-slim>=3,<4", "fastmcp-slim", "fastmcp"},
		{"httpx", "fastmcp", "fastmcp-slim"},
	} {
		got, _ := runDepRule(t, mcp002, map[string]string{"uv.lock": lock, "requirements.txt": c.declared + "\n"})
		var locked []Diagnostic
		for _, d := range got {
			if strings.HasSuffix(d.Path, "uv.lock") {
				locked = append(locked, d)
			}
		}
		if len(locked) != 1 {
			t.Errorf("%s: %d lock findings, want 1", c.declared, len(locked))
			continue
		}
		if m := locked[0].Message; !strings.HasPrefix(m, c.kept+" 3.4.7 locked") || !strings.Contains(m, "also holds "+c.other+" 3.4.7") {
			t.Errorf("%s: %s", c.declared, m)
		}
	}
}

func TestPinCommentMentions(t *testing.T) {
	for _, c := range []struct {
		comment string
		want    bool
	}{
		{"# keep mcp on 1.x", true},
		{"# MCP 1.x only: the platform", true},
		{"# want: MCP001", false},
		{"# mcplint: ignore[MCP001] pinned by ops", false},
		{"# fastmcp pulls it", false},
		{"# mcp-proxy needs this", false},
		{"# staging runs 1.25.0", true},
		{"# staging runs 1.25.01", false},
		{"# unrelated", false},
	} {
		if got := mentions(c.comment, []string{"mcp"}, []string{"1.25.0"}); got != c.want {
			t.Errorf("%q: %v, want %v", c.comment, got, c.want)
		}
	}
}

func TestDescribeUses(t *testing.T) {
	uses := []apiUse{{"mcp.server.fastmcp", "a.py:1"}, {"McpError", "e.py:3"}, {"mcp.server.fastmcp", "b.py:2"},
		{"mcp.server.fastmcp", "c.py:4"}, {"mcp.server.fastmcp", "d.py:5"}}
	if got, want := describeUses(uses), "mcp.server.fastmcp (a.py:1, b.py:2 and 2 more), McpError (e.py:3)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// On the lock of a fastmcp 2.x project, the advice to require mcp 2 says that
// the locked fastmcp, built on mcp 1.x, has to move to 4 as well
// (Azure-Samples/python-mcp-demos: uv.lock with fastmcp 2.13.3 and mcp 1.22.0).
func TestMCP001LockAdviceNamesLockedFastmcp(t *testing.T) {
	lock := "version = 1\n\n[[package]]\nname = \"fastmcp\"\nversion = \"2.13.3\"\n\n[[package]]\nname = \"mcp\"\nversion = \"1.22.0\"\n"
	mcpOnly := "version = 1\n\n[[package]]\nname = \"mcp\"\nversion = \"1.22.0\"\n"
	withFastmcp := "[project]\ndependencies = [\"mcp>=1.3.0\", \"fastmcp>=2.13.3\"]\n"
	withoutFastmcp := "[project]\ndependencies = [\"mcp>=1.3.0\"]\n"
	server := "from fastmcp import FastMCP\n\nmcp = FastMCP(\"x\")\n"
	for _, tc := range []struct {
		name, manifest, lock string
		want                 bool
	}{
		{"fastmcp 2.13.3 declared and locked", withFastmcp, lock, true},
		{"fastmcp 4 locked", withFastmcp, strings.Replace(lock, "2.13.3", "4.0.0", 1), false},
		{"no fastmcp", withoutFastmcp, mcpOnly, false},
		{"fastmcp only pulled in by another package", withoutFastmcp, lock, false},
	} {
		got, _ := runDepRule(t, mcp001, map[string]string{"uv.lock": tc.lock, "pyproject.toml": tc.manifest, "server.py": server})
		var advice string
		for _, d := range got {
			if strings.HasSuffix(d.Path, "uv.lock") && len(d.Fixes) > 0 {
				advice = d.Fixes[0].Message
			}
		}
		if advice == "" {
			t.Errorf("%s: no finding on the lock: %+v", tc.name, got)
			continue
		}
		has := strings.Contains(advice, "fastmcp 2.13.3, which uv.lock also locks, is built on mcp 1.x: move it to fastmcp>=4,<5 as well")
		if has != tc.want {
			t.Errorf("%s: advice %q", tc.name, advice)
		}
	}
}
