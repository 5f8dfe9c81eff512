// Package action holds the shell logic of the GitHub Action (action.yml at
// the repository root). These tests run action/mcplint-action.sh outside
// GitHub with a simulated environment: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// RUNNER_TEMP, GITHUB_BASE_REF and the INPUT_* variables action.yml sets.
package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stub is a fake mcplint: it records its arguments, writes each --output
// with something of its --format, and exits with $STUB_EXIT.
const stub = `#!/bin/sh
printf '%s\n' "$@" > "$STUB_ARGS"
prev=""; fmt=""
for a in "$@"; do
	if [ "$prev" = "--format" ]; then fmt=$a; fi
	if [ "$prev" = "--output" ]; then
		case $fmt in
		json) printf '%s\n' "$STUB_JSON" > "$a" ;;
		markdown) echo "# stub report" > "$a" ;;
		sarif) echo '{"version": "2.1.0", "runs": []}' > "$a" ;;
		esac
	fi
	prev=$a
done
exit ${STUB_EXIT:-0}
`

type sim struct {
	t                       *testing.T
	dir, work, out, summary string
	env                     []string
}

func script(t *testing.T) string {
	p, err := filepath.Abs("mcplint-action.sh")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// newSim prepares a workspace, a runner temp folder and the GitHub files.
func newSim(t *testing.T, mcplint string) *sim {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the action's script needs bash")
	}
	dir := t.TempDir()
	s := &sim{t: t, dir: dir, work: filepath.Join(dir, "ws"), out: filepath.Join(dir, "github_output"), summary: filepath.Join(dir, "step_summary")}
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{s.work, bin, filepath.Join(dir, "runner")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if mcplint == "" {
		if err := os.WriteFile(filepath.Join(bin, "mcplint"), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Symlink(mcplint, filepath.Join(bin, "mcplint")); err != nil {
		t.Fatal(err)
	}
	s.env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + dir,
		"GITHUB_ACTIONS=true",
		"GITHUB_WORKSPACE=" + s.work,
		"GITHUB_OUTPUT=" + s.out,
		"GITHUB_STEP_SUMMARY=" + s.summary,
		"RUNNER_TEMP=" + filepath.Join(dir, "runner"),
		"STUB_ARGS=" + filepath.Join(dir, "args"),
		`STUB_JSON={"summary": {"findings": 3, "errors": 2, "warnings": 1, "notes": 0}}`,
		"INPUT_WORKING_DIRECTORY=" + s.work,
	}
	return s
}

func (s *sim) run(env ...string) (string, error) {
	cmd := exec.Command("bash", script(s.t), "run")
	cmd.Dir = s.work
	cmd.Env = append(append([]string{}, s.env...), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *sim) args() []string {
	b, err := os.ReadFile(filepath.Join(s.dir, "args"))
	if err != nil {
		s.t.Fatalf("mcplint was not run: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func (s *sim) outputs() map[string]string {
	b, err := os.ReadFile(s.out)
	if err != nil {
		s.t.Fatalf("no GITHUB_OUTPUT written: %v", err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		m[k] = v
	}
	return m
}

func contains(args []string, seq ...string) bool {
	for i := 0; i+len(seq) <= len(args); i++ {
		if strings.Join(args[i:i+len(seq)], "\x00") == strings.Join(seq, "\x00") {
			return true
		}
	}
	return false
}

func TestDefaults(t *testing.T) {
	s := newSim(t, "")
	out, err := s.run()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	args := s.args()
	for _, seq := range [][]string{
		{"check", "--exit-zero", "--no-cache"},
		{"--format", "sarif", "--output", "mcplint.sarif", "--sarif-category", "mcplint"},
		{"--format", "github"},
		{"--format", "markdown"},
	} {
		if !contains(args, seq...) {
			t.Errorf("command line %q lacks %q", args, seq)
		}
	}
	if args[len(args)-1] != "." {
		t.Errorf("paths are not last: %q", args)
	}
	o := s.outputs()
	want := map[string]string{"findings": "3", "exit-code": "0", "failed": "true", "sarif-file": filepath.Join(s.work, "mcplint.sarif")}
	for k, v := range want {
		if o[k] != v {
			t.Errorf("output %s = %q, want %q", k, o[k], v)
		}
	}
	sum, err := os.ReadFile(s.summary)
	if err != nil || !strings.Contains(string(sum), "# stub report") {
		t.Errorf("step summary not written: %q %v", sum, err)
	}
}

func TestInputs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		failed  string
		sarif   bool
		args    [][]string
		notArgs []string
	}{
		{name: "github only, fail on warning", env: []string{"INPUT_FORMAT=github", "INPUT_FAIL_ON=warning", `STUB_JSON={"summary": {"findings": 1, "errors": 0, "warnings": 1}}`},
			failed: "true", args: [][]string{{"--format", "github"}}, notArgs: []string{"sarif"}},
		{name: "errors only fail on error", env: []string{"INPUT_FAIL_ON=error", `STUB_JSON={"summary": {"findings": 1, "errors": 0, "warnings": 1}}`},
			failed: "false", sarif: true},
		{name: "never", env: []string{"INPUT_FAIL_ON=never"}, failed: "false", sarif: true},
		{name: "sarif only with category and paths", env: []string{"INPUT_FORMAT=sarif", "INPUT_CATEGORY=mcp-servers", "INPUT_SARIF_FILE=out/m.sarif", "INPUT_PATHS=src  tools", "INPUT_ARGS=--select MCP1 --unsafe-fixes"},
			failed: "true", sarif: true,
			args: [][]string{{"--output", "out/m.sarif", "--sarif-category", "mcp-servers"}, {"--select", "MCP1", "--unsafe-fixes"}, {"src", "tools"}}, notArgs: []string{"github"}},
		{name: "internal error", env: []string{"STUB_EXIT=2", "INPUT_FAIL_ON=never"}, failed: "true", sarif: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, "")
			os.MkdirAll(filepath.Join(s.work, "out"), 0o755)
			if out, err := s.run(tc.env...); err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			args := s.args()
			for _, seq := range tc.args {
				if !contains(args, seq...) {
					t.Errorf("command line %q lacks %q", args, seq)
				}
			}
			for _, a := range tc.notArgs {
				for _, got := range args {
					if got == a {
						t.Errorf("command line %q has %q", args, a)
					}
				}
			}
			o := s.outputs()
			if o["failed"] != tc.failed {
				t.Errorf("failed = %q, want %q", o["failed"], tc.failed)
			}
			if (o["sarif-file"] != "") != tc.sarif {
				t.Errorf("sarif-file = %q", o["sarif-file"])
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	s := newSim(t, "")
	out, err := s.run("INPUT_FORMAT=xml")
	if err == nil || !strings.Contains(out, "::error") || !strings.Contains(out, "format must be") {
		t.Errorf("bad format accepted: %v\n%s", err, out)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestOnlyNew(t *testing.T) {
	s := newSim(t, "")
	git(t, s.work, "init", "-q")
	os.WriteFile(filepath.Join(s.work, "a.py"), []byte("x = 1\n"), 0o644)
	git(t, s.work, "add", "a.py")
	git(t, s.work, "commit", "-q", "-m", "base")
	base := git(t, s.work, "rev-parse", "HEAD")
	git(t, s.work, "update-ref", "refs/remotes/origin/main", base)
	os.WriteFile(filepath.Join(s.work, "a.py"), []byte("x = 2\n"), 0o644)
	git(t, s.work, "commit", "-q", "-am", "change")
	if out, err := s.run("INPUT_ONLY_NEW=true", "GITHUB_BASE_REF=main"); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if args := s.args(); !contains(args, "--new-from-rev", base) {
		t.Errorf("command line %q lacks --new-from-rev %s", args, base)
	}
	// Not a pull request: everything is reported, with a notice.
	out, err := s.run("INPUT_ONLY_NEW=true", "GITHUB_BASE_REF=")
	if err != nil {
		t.Fatal(err)
	}
	if contains(s.args(), "--new-from-rev") || !strings.Contains(out, "::notice") {
		t.Errorf("only-new outside a pull request: %q\n%s", s.args(), out)
	}
}

// TestRealBinary runs the script with mcplint built from this repository on
// a project with a crash: annotations, SARIF, outputs and step summary.
func TestRealBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcplint")
	build := exec.Command("go", "build", "-o", bin, "../cmd/mcplint")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build mcplint: %v\n%s", err, out)
	}
	s := newSim(t, bin)
	os.WriteFile(filepath.Join(s.work, "requirements.txt"), []byte("mcp==1.26.0\n"), 0o644)
	os.WriteFile(filepath.Join(s.work, "server.py"), []byte(`import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def double(x: int) -> int:
    return await anyio.to_thread.run_sync(lambda: x * 2)
`), 0o644)
	out, err := s.run()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "::error file=server.py,line=9") {
		t.Errorf("no annotation for the offload:\n%s", out)
	}
	o := s.outputs()
	if o["findings"] == "0" || o["failed"] != "true" || o["exit-code"] != "0" {
		t.Errorf("outputs = %v", o)
	}
	sarif, err := os.ReadFile(o["sarif-file"])
	if err != nil || !strings.Contains(string(sarif), `"ruleId": "MCP101"`) || !strings.Contains(string(sarif), `"uri": "server.py"`) {
		t.Errorf("SARIF file %s: %v", o["sarif-file"], err)
	}
	sum, _ := os.ReadFile(s.summary)
	if !strings.Contains(string(sum), "**Crashes on cancel: yes**") {
		t.Errorf("step summary:\n%s", sum)
	}
}
