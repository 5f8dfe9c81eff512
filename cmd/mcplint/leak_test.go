//go:build unix

package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
)

// fakeToken is planted where actions/checkout writes the job's token.
const fakeToken = "ghs_FAKE7Qm2Xv9Lp4Rt8Wz1Ks6Nd3Hy5Bj0GcQ"

// leaks returns the 8-character fragments of the token, of its base64 (as
// git's extraheader holds it, and alone) and of their reverses that out
// holds.
func leaks(out string) []string {
	rev := func(s string) string {
		b := []byte(s)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	}
	var found []string
	for _, s := range []string{fakeToken, base64.StdEncoding.EncodeToString([]byte("x-access-token:" + fakeToken)), base64.StdEncoding.EncodeToString([]byte(fakeToken))} {
		for _, v := range []string{s, rev(s)} {
			for i := 0; i+8 <= len(v); i++ {
				if strings.Contains(out, v[i:i+8]) {
					found = append(found, v[i:i+8])
				}
			}
		}
	}
	return found
}

// gitConfig is .git/config as actions/checkout leaves it (persist-credentials: true).
var gitConfig = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://github.com/o/r\n" +
	"[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:"+fakeToken)) + "\n"

// runFormats runs mcplint check on dir in every output format (on stdout),
// then as the Action does (sarif, json and the markdown step summary to
// files, github annotations on stdout), and returns each output by name.
func runFormats(t *testing.T, dir string, extra ...string) map[string]string {
	t.Helper()
	outs := map[string]string{}
	for _, format := range []string{"text", "json", "sarif", "github", "markdown"} {
		var out bytes.Buffer
		root := newRootCmd()
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(append(append([]string{"check", "--no-color", "--no-cache", "-v", "--format", format}, extra...), dir))
		_ = root.Execute() // findings: an exit code error
		outs[format] = out.String()
	}
	files := t.TempDir()
	var out bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append(append([]string{"check", "--no-color", "--no-cache", "--format", "sarif", "-o", filepath.Join(files, "mcplint.sarif"),
		"--format", "json", "-o", filepath.Join(files, "mcplint.json"), "--format", "markdown", "-o", filepath.Join(files, "summary.md"), "--format", "github"}, extra...), dir))
	_ = root.Execute()
	outs["action github"] = out.String()
	for _, f := range []string{"mcplint.sarif", "mcplint.json", "summary.md"} {
		b, err := os.ReadFile(filepath.Join(files, f))
		if err != nil {
			t.Fatalf("the Action's %s: %v", f, err)
		}
		outs["action "+f] = string(b)
	}
	return outs
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func link(t *testing.T, dir, name, target string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// A pull request must not make mcplint print the workflow's token (issue
// 28): each way a pull request can point mcplint at .git/config or a
// credentials file a CI step wrote, checked in every output format, the
// Action's step summary included. The token appears in none, not even an
// 8-character fragment of it, of its base64 or of their reverses, and the
// refusal names the path.
func TestPullRequestCannotPrintTheToken(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("CI", "")
	creds := `{"token": "` + fakeToken + `", "type": "external_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}` + "\n"
	base := map[string]string{".git/config": gitConfig, ".git/HEAD": "ref: refs/heads/" + fakeToken + "\n", "server.py": offloadServer, "requirements.txt": "mcp==1.20.0\n"}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string // in the text output
		extra []string
	}{
		{"symlink requirements-dev.txt to .git/config", func(t *testing.T, dir string) {
			link(t, dir, "requirements-dev.txt", ".git/config")
		}, []string{"requirements-dev.txt:1:1: MCP000 a symlink into version-control internals (.git): not read"}, nil},
		{"-r .git/config", func(t *testing.T, dir string) {
			writeTree(t, dir, map[string]string{"requirements.txt": "mcp==1.20.0\n-r .git/config\n"})
		}, []string{`requirements.txt:2:4: MCP000 -r ".git/config": the file is inside version-control internals (.git): not read`}, nil},
		{"symlinked requirements.txt to a credentials JSON", func(t *testing.T, dir string) {
			writeTree(t, dir, map[string]string{"gha-creds-1a2b.json": creds, "requirements.txt": ""})
			os.Remove(filepath.Join(dir, "requirements.txt"))
			link(t, dir, "requirements.txt", "gha-creds-1a2b.json")
			writeTree(t, dir, map[string]string{"requirements-pin.txt": "mcp==1.20.0\n"})
		}, []string{`requirements.txt:1:1: MCP000 symlink not followed: it leads to "gha-creds-1a2b.json", not a dependency file of the same format`}, nil},
		{"a .py symlink to .git/HEAD", func(t *testing.T, dir string) {
			link(t, dir, "tool.py", ".git/HEAD")
		}, []string{"tool.py:1:1: MCP000 a symlink into version-control internals (.git): not read"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, base)
			c.setup(t, dir)
			t.Chdir(dir)
			outs := runFormats(t, ".", c.extra...)
			for name, out := range outs {
				if l := leaks(out); len(l) > 0 {
					t.Errorf("%s: the token leaks (%d fragments, %q...):\n%s", name, len(l), l[0], out)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(outs["text"], w) {
					t.Errorf("text: no %q in:\n%s", w, outs["text"])
				}
			}
			if !strings.Contains(outs["text"], "MCP101") || !strings.Contains(outs["text"], "MCP001") {
				t.Errorf("the rest of the scan was not reported:\n%s", outs["text"])
			}
		})
	}
}

// --tracked-only (on by default in CI inside a work tree): a credentials
// file a CI step wrote beside a tracked one is not read, by the walk or an
// include, and --verbose says so; the tracked one is read, and a quote of it
// is masked.
func TestTrackedOnlyUntrackedCredentials(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	creds := "{\"private_key_id\": \"" + fakeToken + "\"}\n"
	writeTree(t, dir, map[string]string{"server.py": offloadServer, "requirements.txt": "mcp==1.20.0\n-r gha-creds-x.json\n-r gha-creds-tracked.json\n",
		"gha-creds-tracked.json": creds})
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "x")
	// What a CI step writes after the checkout.
	writeTree(t, dir, map[string]string{"gha-creds-x.json": creds, "requirements-ci.txt": "token=" + fakeToken + "\n"})
	gitRun("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic "+base64.StdEncoding.EncodeToString([]byte("x-access-token:"+fakeToken)))
	t.Chdir(dir)
	for _, env := range []struct{ name, gha, ci string }{{"--tracked-only", "", ""}, {"GITHUB_ACTIONS=true", "true", ""}, {"CI=true", "", "true"}} {
		t.Run(env.name, func(t *testing.T) {
			t.Setenv("GITHUB_ACTIONS", env.gha)
			t.Setenv("CI", env.ci)
			var extra []string
			if env.name == "--tracked-only" {
				extra = []string{"--tracked-only"}
			}
			outs := runFormats(t, ".", extra...)
			for name, out := range outs {
				if l := leaks(out); len(l) > 0 {
					t.Errorf("%s: the token leaks (%d fragments, %q...):\n%s", name, len(l), l[0], out)
				}
			}
			text := outs["text"]
			for _, w := range []string{
				`requirements.txt:2:4: MCP000 -r "gha-creds-x.json": cannot read the included file: not tracked by git (--tracked-only): not read`,
				`requirements.txt:1:1: MCP001`, "server.py:11:18: MCP101",
				"mcplint: --tracked-only: 1 file git does not track not read: requirements-ci.txt",
				`gha-creds-tracked.json:1:1: MCP000 invalid requirement`, // read: the repository's own
			} {
				if !strings.Contains(text, w) && !strings.Contains(outs["github"], w) {
					t.Errorf("no %q in:\n%s", w, text)
				}
			}
			if strings.Contains(text, "requirements-ci.txt:") {
				t.Errorf("the untracked requirements-ci.txt was read:\n%s", text)
			}
		})
	}
	// Without it, outside CI, every file is read (the redaction still masks
	// the token in the quotes).
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("CI", "")
	outs := runFormats(t, ".")
	if !strings.Contains(outs["text"], "requirements-ci.txt:1:") {
		t.Errorf("--tracked-only is on outside CI:\n%s", outs["text"])
	}
	for name, out := range outs {
		if l := leaks(out); len(l) > 0 {
			t.Errorf("%s (every file read): the token leaks past the redaction (%q...):\n%s", name, l[0], out)
		}
	}
	// --tracked-only=false in CI reads every file too.
	t.Setenv("CI", "true")
	outs = runFormats(t, ".", "--tracked-only=false")
	if !strings.Contains(outs["text"], "requirements-ci.txt:1:") {
		t.Errorf("--tracked-only=false:\n%s", outs["text"])
	}
}

// Without git, an explicit --tracked-only is an error; the CI default says
// so and reads every file.
func TestTrackedOnlyWithoutGit(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "server.py": offloadServer, "requirements.txt": "mcp==1.20.0\n"})
	t.Chdir(dir)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("CI", "")
	if code, out := runCLI(t, "check", "--tracked-only", "."); code != exitError || !strings.Contains(out, "--tracked-only: git cannot list the tracked files") {
		t.Errorf("explicit --tracked-only without git: exit %d:\n%s", code, out)
	}
	t.Setenv("GITHUB_ACTIONS", "true")
	if code, out := runCLI(t, "check", "."); code != exitFindings || !strings.Contains(out, "mcplint: warning: git cannot list the tracked files") || !strings.Contains(out, "MCP101") {
		t.Errorf("CI default without git: exit %d:\n%s", code, out)
	}
}

// runCLI runs mcplint in-process and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	root := newRootCmd()
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	code := exitClean
	var ec exitCode
	switch {
	case err == nil:
	case errors.As(err, &ec):
		code = ec.code
	default:
		code = exitError
		out.WriteString("mcplint: " + err.Error() + "\n")
	}
	return code, out.String()
}

// --verbose names the files --tracked-only did not read: how many, and the
// first 50.
func TestVerboseListsUntracked(t *testing.T) {
	res := &engine.Result{}
	for i := 0; i < 53; i++ {
		res.Untracked = append(res.Untracked, fmt.Sprintf("creds-%02d.json", i))
	}
	res.Untracked[0] = "evil\n::error ::x.py"
	var b bytes.Buffer
	printVerbose(&b, res)
	out := b.String()
	if !strings.Contains(out, `mcplint: --tracked-only: 53 files git does not track not read: evil\n::error ::x.py, creds-01.json, `) ||
		!strings.Contains(out, "creds-49.json and 3 more\n") || strings.Contains(out, "creds-50") {
		t.Errorf("verbose:\n%s", out)
	}
}
