// Package action holds the shell logic of the GitHub Action (action.yml at
// the repository root). These tests run action/mcplint-action.sh outside
// GitHub with a simulated environment: GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
// RUNNER_TEMP, GITHUB_BASE_REF and the INPUT_* variables action.yml sets.
package action

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stub is a fake mcplint: it records its arguments, writes each --output
// with something of its --format (none with $STUB_NOWRITE, as mcplint on a
// usage error), and exits with $STUB_EXIT.
const stub = `#!/bin/sh
printf '%s\n' "$@" > "$STUB_ARGS"
[ -n "$STUB_NOWRITE" ] && exit ${STUB_EXIT:-0}
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
	// Bounded: the review tests talk to reviewdog and a local server.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script(s.t), "run")
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
		{"--format", "sarif", "--output"},
		{"--sarif-category", "mcplint"},
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
	want := map[string]string{"findings": "3", "exit-code": "0", "failed": "true"}
	for k, v := range want {
		if o[k] != v {
			t.Errorf("output %s = %q, want %q", k, o[k], v)
		}
	}
	// The SARIF goes to a new folder under RUNNER_TEMP, outside the
	// workspace, and the output names it.
	runner := filepath.Join(s.dir, "runner") + string(filepath.Separator)
	if !strings.HasPrefix(o["sarif-file"], runner) || !contains(args, "--output", o["sarif-file"]) {
		t.Errorf("sarif-file = %q, want a file under %s given to --output (%q)", o["sarif-file"], runner, args)
	}
	if _, err := os.Stat(o["sarif-file"]); err != nil {
		t.Errorf("sarif-file: %v", err)
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
		// Every line of args and paths is read (issue 29: only the first was).
		{name: "args and paths over several lines", env: []string{"INPUT_ARGS=--select MCP1\n--unsafe-fixes\n  --ignore MCP104\n", "INPUT_PATHS=src\ntools\n"},
			failed: "true", sarif: true,
			args: [][]string{{"--select", "MCP1", "--unsafe-fixes", "--ignore", "MCP104"}, {"src", "tools"}}},
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
	out, err = s.run("INPUT_REVIEW=comments")
	if err == nil || !strings.Contains(out, "::error title=mcplint action::review must be suggestions or empty") {
		t.Errorf("bad review accepted: %v\n%s", err, out)
	}
}

// review: suggestions outside a pull request: mcplint runs as without it
// (no rdjson, no reviewdog), with a notice.
func TestReviewNotAPullRequest(t *testing.T) {
	s := newSim(t, "")
	out, err := s.run("INPUT_REVIEW=suggestions", "GITHUB_EVENT_NAME=push", "INPUT_GITHUB_TOKEN=t", "REVIEWDOG=/nonexistent/reviewdog")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "::notice title=mcplint::review: suggestions: not a pull request (push)") || contains(s.args(), "--format", "rdjson") {
		t.Errorf("no notice, or rdjson written, on a push: %q\n%s", s.args(), out)
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

// buildMcplint builds mcplint from this repository.
func buildMcplint(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcplint")
	build := exec.Command("go", "build", "-o", bin, "../cmd/mcplint")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build mcplint: %v\n%s", err, out)
	}
	return bin
}

// The reproduction of issue 29 with the real mcplint: a pull request
// commits mcplint.sarif as a symlink to the action's own script and a
// requirements line that the SARIF quotes. Neither the default sarif-file
// nor sarif-file: mcplint.sarif writes the script; with a bogus config key
// (mcplint exits 2 before writing) nothing is offered for upload.
func TestRealBinaryCommittedSarif(t *testing.T) {
	bin := buildMcplint(t)
	for _, tc := range []struct {
		name, sarifFile, config string
		upload                  bool
	}{
		{"default sarif-file", "", "", true},
		{"sarif-file: mcplint.sarif", "mcplint.sarif", "", true},
		{"exit 2 before writing", "mcplint.sarif", "[tool.mcplint]\nbogus-key = 1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, bin)
			script := filepath.Join(s.dir, "mcplint-action.sh")
			const body = "#!/bin/sh\necho the action\n"
			os.WriteFile(script, []byte(body), 0o755)
			os.Symlink(script, filepath.Join(s.work, "mcplint.sarif"))
			os.WriteFile(filepath.Join(s.work, "requirements.txt"), []byte("mcp==1.26.0\n$(id>/tmp/PWNED)\n"), 0o644)
			if tc.config != "" {
				os.WriteFile(filepath.Join(s.work, "pyproject.toml"), []byte(tc.config), 0o644)
			}
			out, err := s.run("INPUT_SARIF_FILE="+tc.sarifFile, "INPUT_UPLOAD_SARIF=true")
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			if b, _ := os.ReadFile(script); string(b) != body {
				t.Fatalf("the action's script was written:\n%s", b)
			}
			o := s.outputs()
			if !tc.upload {
				if o["sarif-file"] != "" || o["exit-code"] != "2" {
					t.Errorf("outputs %v, want no sarif-file and exit-code 2", o)
				}
				return
			}
			sarif, err := os.ReadFile(o["sarif-file"])
			if err != nil || !strings.Contains(string(sarif), "id>/tmp/PWNED") {
				t.Errorf("SARIF %s: %v (does it quote the line?)", o["sarif-file"], err)
			}
			if st, err := os.Lstat(o["sarif-file"]); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 != 0 {
				t.Errorf("sarif-file %s is not a new, non-executable regular file: %v", o["sarif-file"], st.Mode())
			}
		})
	}
}

// TestRealBinary runs the script with mcplint built from this repository on
// a project with a crash: annotations, SARIF, outputs and step summary.
func TestRealBinary(t *testing.T) {
	s := newSim(t, buildMcplint(t))
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

// A SARIF file the pull request committed is never uploaded, nor written
// through (issue 29): with the default sarif-file the SARIF goes under
// RUNNER_TEMP and the workspace's mcplint.sarif is not touched; with
// sarif-file: mcplint.sarif, what is at the path (here a symlink to the
// action's script) is removed before mcplint runs, the link's target is
// left as it was, and when mcplint exits 2 before writing, sarif-file is
// empty, so the upload step does not run.
func TestCommittedSarifNeverUploaded(t *testing.T) {
	for _, tc := range []struct {
		name, sarifFile string
	}{{"default sarif-file", ""}, {"sarif-file: mcplint.sarif", "mcplint.sarif"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, "")
			script := filepath.Join(s.dir, "action.sh")
			os.WriteFile(script, []byte("#!/bin/sh\necho the action\n"), 0o755)
			link := filepath.Join(s.work, "mcplint.sarif")
			if err := os.Symlink(script, link); err != nil {
				t.Fatal(err)
			}
			out, err := s.run("STUB_EXIT=2", "STUB_NOWRITE=1", "INPUT_UPLOAD_SARIF=true", "INPUT_SARIF_FILE="+tc.sarifFile)
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out)
			}
			o := s.outputs()
			if o["sarif-file"] != "" || o["exit-code"] != "2" || o["failed"] != "true" {
				t.Errorf("outputs %v: a SARIF file this run did not write would be uploaded", o)
			}
			if b, _ := os.ReadFile(script); string(b) != "#!/bin/sh\necho the action\n" {
				t.Errorf("the symlink's target changed: %q", b)
			}
			_, lerr := os.Lstat(link)
			if tc.sarifFile == "" && lerr != nil {
				t.Errorf("the workspace's mcplint.sarif was touched with the default sarif-file: %v", lerr)
			}
			if tc.sarifFile != "" && lerr == nil {
				t.Errorf("the committed %s was not removed before the run", tc.sarifFile)
			}
		})
	}
}

// A run reads back only what it wrote: the JSON of an earlier use of the
// action in the same job is not counted when mcplint exits 2 before writing.
func TestEarlierRunNotReadBack(t *testing.T) {
	s := newSim(t, "")
	if out, err := s.run(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	os.Remove(s.out)
	if out, err := s.run("STUB_EXIT=2", "STUB_NOWRITE=1"); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if o := s.outputs(); o["findings"] != "0" || o["sarif-file"] != "" {
		t.Errorf("outputs %v: the first run's reports were read as the second's", o)
	}
}

// A sarif-file whose folder is a symlink in the workspace that leads out of
// it (a pull request commits reports -> the runner's tool folder) is
// refused; nothing is written there.
func TestSarifFolderLeadingOutRefused(t *testing.T) {
	s := newSim(t, "")
	outside := filepath.Join(s.dir, "outside")
	os.MkdirAll(outside, 0o755)
	if err := os.Symlink(outside, filepath.Join(s.work, "reports")); err != nil {
		t.Fatal(err)
	}
	out, err := s.run("INPUT_SARIF_FILE=reports/m.sarif")
	if err == nil || !strings.Contains(out, "::error") || !strings.Contains(out, "leads outside it (a symlink)") || strings.Contains(out, outside) {
		t.Errorf("accepted: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the workspace: %v", entries)
	}
	// A folder inside the workspace is fine.
	os.MkdirAll(filepath.Join(s.work, "out"), 0o755)
	if out, err := s.run("INPUT_SARIF_FILE=out/m.sarif"); err != nil {
		t.Errorf("run: %v\n%s", err, out)
	}
}

// The step summary warns when .git/config holds the job's token (an http
// extraheader) while SARIF is uploaded (issue 28), and never prints the
// header's value.
func TestWarnsOfStoredCredentials(t *testing.T) {
	const token = "eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0VUT0tFTg=="
	s := newSim(t, "")
	git(t, s.work, "init", "-q")
	cfg := filepath.Join(s.work, ".git", "config")
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + token + "\n")
	f.Close()
	for _, c := range []struct {
		env  []string
		want string // what the warning names as on; "" for no warning
	}{
		{[]string{"INPUT_UPLOAD_SARIF=false"}, ""},
		{[]string{"INPUT_UPLOAD_SARIF=true"}, "while upload-sarif is on"},
		// Outside a pull request review only says so; the token is still
		// in the file the analysis could be led to.
		{[]string{"INPUT_UPLOAD_SARIF=false", "INPUT_REVIEW=suggestions"}, "while review: suggestions is on"},
		{[]string{"INPUT_UPLOAD_SARIF=true", "INPUT_REVIEW=suggestions"}, "while upload-sarif and review: suggestions is on"},
	} {
		os.Remove(s.summary)
		out, err := s.run(c.env...)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, out)
		}
		sum, _ := os.ReadFile(s.summary)
		warned := strings.Contains(string(sum), "persist-credentials: false") && strings.Contains(out, "::warning title=mcplint::the job's token is stored in .git/config")
		if warned != (c.want != "") || c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("%v: warned %v, want %q\nlog:\n%s\nsummary:\n%s", c.env, warned, c.want, out, sum)
		}
		for _, frag := range []string{token, token[:12], "AUTHORIZATION"} {
			if strings.Contains(out, frag) || strings.Contains(string(sum), frag) {
				t.Errorf("the header's value was printed (%q)", frag)
			}
		}
	}
	// From a linked worktree of that repository (its own git folder has no
	// config): the common folder's config is the one read.
	os.WriteFile(filepath.Join(s.work, "a.py"), []byte("x = 1\n"), 0o644)
	git(t, s.work, "add", "a.py")
	git(t, s.work, "commit", "-q", "-m", "base")
	wt := filepath.Join(s.dir, "linked")
	git(t, s.work, "worktree", "add", "-q", wt)
	os.Remove(s.summary)
	out, err := s.run("INPUT_UPLOAD_SARIF=true", "INPUT_WORKING_DIRECTORY="+wt)
	if err != nil || !strings.Contains(out, "::warning title=mcplint::the job's token is stored in .git/config") || strings.Contains(out, token) {
		t.Errorf("linked worktree: %v\n%s", err, out)
	}
}
