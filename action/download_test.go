package action

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// step runs one command of the action's script with a fresh GITHUB_OUTPUT
// and returns its output, its error and the step outputs it wrote.
func (s *sim) step(command string, env ...string) (string, error, map[string]string) {
	s.t.Helper()
	os.Remove(s.out)
	cmd := exec.Command("bash", script(s.t), command)
	cmd.Dir = s.work
	cmd.Env = append(append(append([]string{}, s.env...),
		"GITHUB_PATH="+filepath.Join(s.dir, "github_path"),
		"RUNNER_TOOL_CACHE="+filepath.Join(s.dir, "toolcache"),
		"RUNNER_OS=Linux", "RUNNER_ARCH=X64",
	), env...)
	out, err := cmd.CombinedOutput()
	o := map[string]string{}
	if b, rerr := os.ReadFile(s.out); rerr == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			k, v, _ := strings.Cut(l, "=")
			o[k] = v
		}
	}
	return string(out), err, o
}

// install runs resolve, then install with resolve's outputs, as action.yml
// does.
func (s *sim) install(env ...string) (string, error, map[string]string, map[string]string) {
	s.t.Helper()
	out, err, r := s.step("resolve", env...)
	if err != nil {
		return out, err, r, nil
	}
	env = append(env, "MODE="+r["mode"], "VERSION="+r["version"], "DIR="+r["dir"])
	out2, err, i := s.step("install", env...)
	return out + out2, err, r, i
}

// fakeRelease lays out a release of version 0.9.0 with a stub binary for
// linux_amd64 only, and its checksums from scripts/release-checksums.sh.
func fakeRelease(t *testing.T) (base, dir string) {
	t.Helper()
	base = t.TempDir()
	dir = filepath.Join(base, "v0.9.0")
	src := t.TempDir()
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(src, "mcplint"), []byte("#!/bin/sh\necho 'mcplint 0.9.0 (stub)'\n"), 0o755)
	os.WriteFile(filepath.Join(src, "README.md"), []byte("# mcplint\n"), 0o644)
	if out, err := exec.Command("tar", "-C", src, "-czf", filepath.Join(dir, "mcplint_0.9.0_linux_amd64.tar.gz"), "mcplint", "README.md").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	checksums(t, dir, "0.9.0")
	return base, dir
}

func checksums(t *testing.T, dir, version string) {
	t.Helper()
	if out, err := exec.Command("bash", "../scripts/release-checksums.sh", version, dir).CombinedOutput(); err != nil {
		t.Fatalf("release-checksums.sh: %v\n%s", err, out)
	}
}

func TestDownloadVerifiesAndCaches(t *testing.T) {
	base, dir := fakeRelease(t)
	s := newSim(t, "")
	out, err, r, i := s.install("INPUT_VERSION=v0.9.0", "RELEASE_BASE_URL=file://"+base)
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	if r["mode"] != "download" || r["version"] != "0.9.0" || r["key"] != "mcplint-0.9.0-linux_amd64-archive" || i["build"] != "false" || i["save"] != "true" {
		t.Errorf("outputs: resolve %v, install %v\n%s", r, i, out)
	}
	if !strings.Contains(out, "verified") || !strings.Contains(out, "mcplint 0.9.0 (stub)") {
		t.Errorf("no verification or version:\n%s", out)
	}
	// The tool folder (cached) holds the archive; the program runs from a
	// folder of this run under RUNNER_TEMP.
	bin := installed(t, s)
	if bin != i["bin"] || !strings.HasPrefix(bin, filepath.Join(s.dir, "runner")+string(filepath.Separator)) {
		t.Errorf("GITHUB_PATH = %q, bin output %q, want a folder under RUNNER_TEMP", bin, i["bin"])
	}
	if _, err := os.Stat(filepath.Join(bin, "mcplint")); err != nil {
		t.Errorf("not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r["dir"], "mcplint_0.9.0_linux_amd64.tar.gz")); err != nil {
		t.Errorf("the archive is not in the tool folder for the cache: %v", err)
	}
	// A second run uses the tool folder's archive (restored by actions/cache
	// on a hosted runner): no download of it, even with it gone from the
	// release, and verified again against the release's checksums.
	os.Remove(filepath.Join(dir, "mcplint_0.9.0_linux_amd64.tar.gz"))
	os.Remove(filepath.Join(s.dir, "github_path"))
	out, err, _, i = s.install("INPUT_VERSION=v0.9.0", "RELEASE_BASE_URL=file://"+base)
	if err != nil || i["build"] != "false" || i["save"] != "false" || !strings.Contains(out, "from the tool cache") || !strings.Contains(out, "verified") || !strings.Contains(out, "mcplint 0.9.0 (stub)") {
		t.Errorf("cached run: %v %v\n%s", err, i, out)
	}
	// With the release's checksums gone the cached archive cannot be
	// verified: it is not used, mcplint is built from source instead.
	os.RemoveAll(dir)
	out, err, _, i = s.install("INPUT_VERSION=v0.9.0", "RELEASE_BASE_URL=file://"+base)
	if err != nil || i["build"] != "true" || !strings.Contains(out, "cannot be verified") {
		t.Errorf("unverifiable cached run: %v %v\n%s", err, i, out)
	}
}

// installed is the folder the last install added to GITHUB_PATH.
func installed(t *testing.T, s *sim) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.dir, "github_path"))
	if err != nil {
		t.Fatalf("GITHUB_PATH: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// Whatever an earlier job planted in the tool folder (a self-hosted runner
// keeps RUNNER_TOOL_CACHE; the cache key is public) never runs (issue 29):
// the cache-hit path verified nothing, and ran the folder's mcplint. A
// planted program is ignored, a planted archive is verified against the
// release's checksums and, not matching, replaced by a verified download.
func TestCachedBinaryVerifiedOnEveryUse(t *testing.T) {
	base, _ := fakeRelease(t)
	for _, tc := range []struct{ name, plant string }{
		{"a program in the tool folder", "mcplint"},
		{"a tampered archive in the tool folder", "mcplint_0.9.0_linux_amd64.tar.gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, "")
			_, _, r, _ := s.install("INPUT_VERSION=v0.9.0", "RELEASE_BASE_URL=file://"+base)
			pwned := filepath.Join(s.dir, "PWNED")
			evil := "#!/bin/sh\ntouch " + pwned + "\necho 'mcplint 0.9.0 (planted)'\n"
			plant := filepath.Join(r["dir"], tc.plant)
			if tc.plant == "mcplint" {
				os.MkdirAll(r["dir"], 0o755)
				os.WriteFile(plant, []byte(evil), 0o755)
			} else {
				src := t.TempDir()
				os.WriteFile(filepath.Join(src, "mcplint"), []byte(evil), 0o755)
				if out, err := exec.Command("tar", "-C", src, "-czf", plant, "mcplint").CombinedOutput(); err != nil {
					t.Fatalf("tar: %v\n%s", err, out)
				}
			}
			os.Remove(filepath.Join(s.dir, "github_path"))
			out, err, _, i := s.install("INPUT_VERSION=v0.9.0", "RELEASE_BASE_URL=file://"+base)
			if err != nil || i["build"] != "false" {
				t.Fatalf("install: %v %v\n%s", err, i, out)
			}
			bin := installed(t, s)
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("the planted program ran:\n%s", out)
			}
			if strings.Contains(out, "planted") || !strings.Contains(out, "mcplint 0.9.0 (stub)") {
				t.Errorf("not the release's mcplint:\n%s", out)
			}
			if v, err := exec.Command(filepath.Join(bin, "mcplint")).Output(); err != nil || !strings.Contains(string(v), "(stub)") {
				t.Errorf("%s/mcplint on PATH: %q %v", bin, v, err)
			}
			if tc.plant != "mcplint" && !strings.Contains(out, "does not match the release's checksums") {
				t.Errorf("no warning for the tampered archive:\n%s", out)
			}
		})
	}
}

func TestDownloadChecksumMismatchRefused(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"archive changed after the checksums", "checksum mismatch"},
		{"archive not listed", "does not list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, dir := fakeRelease(t)
			archive := filepath.Join(dir, "mcplint_0.9.0_linux_amd64.tar.gz")
			if tc.want == "checksum mismatch" {
				f, _ := os.OpenFile(archive, os.O_APPEND|os.O_WRONLY, 0)
				f.Write([]byte("tampered"))
				f.Close()
			} else {
				os.WriteFile(filepath.Join(dir, "mcplint_0.9.0_checksums.txt"), []byte(fmt.Sprintf("%x  other.tar.gz\n", sha256.Sum256(nil))), 0o644)
			}
			s := newSim(t, "")
			out, err, r, i := s.install("INPUT_VERSION=0.9.0", "RELEASE_BASE_URL=file://"+base)
			if err == nil || !strings.Contains(out, "::error") || !strings.Contains(out, tc.want) {
				t.Errorf("accepted: %v\n%s", err, out)
			}
			if i["build"] == "true" {
				t.Errorf("a refused download fell back to a build: %v", i)
			}
			if _, err := os.Stat(filepath.Join(r["dir"], "mcplint_0.9.0_linux_amd64.tar.gz")); err == nil {
				t.Errorf("the refused archive was kept in %s for the cache", r["dir"])
			}
			if _, err := os.Stat(filepath.Join(s.dir, "github_path")); err == nil || i["save"] == "true" {
				t.Errorf("the refused archive was installed or saved: %v", i)
			}
		})
	}
}

func TestDownloadFallsBackToSource(t *testing.T) {
	base, _ := fakeRelease(t)
	for _, tc := range []struct {
		name   string
		env    []string
		notice string
		source string
	}{
		{"no archive for the platform", []string{"INPUT_VERSION=v0.9.0", "RUNNER_ARCH=ARM64"}, "has no archive for linux_arm64", "v0.9.0"},
		{"no archive for the OS", []string{"INPUT_VERSION=v0.9.0", "RUNNER_OS=macOS"}, "has no archive for darwin_amd64", "v0.9.0"},
		{"no such release", []string{"INPUT_VERSION=v0.9.1"}, "no mcplint release v0.9.1", "v0.9.1"},
		{"unknown architecture", []string{"INPUT_VERSION=v0.9.0", "RUNNER_ARCH=ARM"}, "no mcplint release is built for this runner", "v0.9.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, "")
			out, err, r, i := s.install(append(tc.env, "RELEASE_BASE_URL=file://"+base)...)
			if err != nil {
				t.Fatalf("install: %v\n%s", err, out)
			}
			if i["build"] != "true" || r["source"] != tc.source || !strings.Contains(out, "::notice") || !strings.Contains(out, tc.notice) || !strings.Contains(out, "building mcplint from source") {
				t.Errorf("resolve %v, install %v:\n%s", r, i, out)
			}
		})
	}
}

func TestResolveVersion(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		env                   []string
		mode, version, source string
		notice                bool
	}{
		{"the action's release tag", []string{"ACTION_REF=v0.9.0"}, "download", "0.9.0", "checkout", false},
		{"the action's major tag: the pinned release", []string{"ACTION_REF=v0"}, "download", "0.1.0", "checkout", false},
		{"a major tag of another release line", []string{"ACTION_REF=v1"}, "source", "", "checkout", true},
		{"a branch", []string{"ACTION_REF=main"}, "source", "", "checkout", true},
		{"source", []string{"INPUT_VERSION=source", "ACTION_REF=v0.9.0"}, "source", "", "checkout", false},
		{"an explicit version", []string{"INPUT_VERSION=v0.8.1", "ACTION_REF=v0"}, "download", "0.8.1", "v0.8.1", false},
		{"a module query", []string{"INPUT_VERSION=latest"}, "source", "", "latest", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, "")
			// The action's checkout pins 0.1.0, as .pre-commit-hooks.yaml does.
			action := t.TempDir()
			os.WriteFile(filepath.Join(action, ".pre-commit-hooks.yaml"), []byte("- id: mcplint\n  additional_dependencies: [\"mcplint==0.1.0\"]\n"), 0o644)
			out, err, o := s.step("resolve", append(tc.env, "ACTION_PATH="+action)...)
			if err != nil {
				t.Fatalf("resolve: %v\n%s", err, out)
			}
			if o["mode"] != tc.mode || o["version"] != tc.version || o["source"] != tc.source || strings.Contains(out, "::notice") != tc.notice {
				t.Errorf("outputs %v, want mode %s version %q source %s, notice %v:\n%s", o, tc.mode, tc.version, tc.source, tc.notice, out)
			}
		})
	}
	s := newSim(t, "")
	if out, err, _ := s.step("resolve", "INPUT_VERSION=v1.0.0 $(id)"); err == nil || !strings.Contains(out, "::error") {
		t.Errorf("a bad version was accepted:\n%s", out)
	}
}

// TestDownloadRealRelease lays out a release with the release scripts
// themselves (scripts/release-build.sh and release-checksums.sh), so that
// the names the action downloads are the names the release publishes, and
// runs the downloaded mcplint.
func TestDownloadRealRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcplint")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("MCPLINT_NO_SKIP") != "" {
			t.Fatal("python3 is needed by scripts/release-build.sh (MCPLINT_NO_SKIP is set)")
		}
		t.Skip("python3 is needed by scripts/release-build.sh")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "v0.7.0")
	build := exec.Command("bash", "../scripts/release-build.sh", "v0.7.0", dir)
	build.Env = append(os.Environ(), "COMMIT=feedfacecafe0000", "DATE=2026-12-02T00:00:00Z")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("release-build.sh: %v\n%s", err, out)
	}
	checksums(t, dir, "0.7.0")
	s := newSim(t, "")
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	out, err, _, i := s.install("INPUT_VERSION=v0.7.0", "RELEASE_BASE_URL=file://"+base, "RUNNER_ARCH="+arch)
	if err != nil || i["build"] != "false" {
		t.Fatalf("install: %v %v\n%s", err, i, out)
	}
	if !strings.Contains(out, "mcplint 0.7.0 (commit feedfacecafe, built 2026-12-02T00:00:00Z") {
		t.Errorf("the downloaded mcplint does not say its version:\n%s", out)
	}
	// It is the real thing: run it through the action.
	s.env = append(s.env, "PATH="+installed(t, s)+string(os.PathListSeparator)+os.Getenv("PATH"))
	os.WriteFile(filepath.Join(s.work, "requirements.txt"), []byte("mcp==1.26.0\n"), 0o644)
	os.WriteFile(filepath.Join(s.work, "server.py"), []byte("import anyio\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"demo\")\n\n\n@mcp.tool()\nasync def double(x: int) -> int:\n    return await anyio.to_thread.run_sync(lambda: x * 2)\n"), 0o644)
	if out, err := s.run(); err != nil || !strings.Contains(out, "::error file=server.py,line=9") {
		t.Errorf("run with the downloaded mcplint: %v\n%s", err, out)
	}
}

// TestBuildFallback builds mcplint from the action's checkout, as the
// build step does when no release matches.
func TestBuildFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcplint")
	}
	s := newSim(t, "")
	root, _ := filepath.Abs("..")
	env := []string{"ACTION_PATH=" + root, "SOURCE=checkout"}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} { // the sim's HOME has none
		v, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(v)))
	}
	out, err, _ := s.step("build", env...)
	if err != nil || !strings.Contains(out, "mcplint ") {
		t.Fatalf("build: %v\n%s", err, out)
	}
	bin := filepath.Join(s.dir, "runner", "mcplint-bin", "mcplint")
	if v, err := exec.Command(bin, "--version").Output(); err != nil || !strings.HasPrefix(string(v), "mcplint ") {
		t.Errorf("%s --version: %v %q", bin, err, v)
	}
}

// TestActionYAML checks the order action.yml relies on: resolve, the cache
// (downloads only), install, then Go and the build only when install asks
// for them; every script command it runs exists.
func TestActionYAML(t *testing.T) {
	// Go and reviewdog only for review: suggestions on a pull request.
	const reviewIf = "${{ inputs.review == 'suggestions' && (github.event_name == 'pull_request' || github.event_name == 'pull_request_target') }}"
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				ID, Name, Uses, Run, If string
				With                    map[string]string
				Env                     map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Inputs["version"]; !ok || a.Inputs["version"].Default != "" {
		t.Errorf("version input: %v", a.Inputs["version"])
	}
	var order []string
	sh, _ := os.ReadFile("mcplint-action.sh")
	for _, s := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			t.Errorf("actions/cache saves at the end of the job, after later steps could change the tool folder: use cache/restore and cache/save")
		case strings.HasPrefix(s.Uses, "actions/cache/restore@"):
			order = append(order, "restore")
			if s.If != "${{ steps.resolve.outputs.mode == 'download' }}" || s.With["key"] != "${{ steps.resolve.outputs.key }}" || s.With["path"] != "${{ steps.resolve.outputs.dir }}" {
				t.Errorf("cache restore step: if %q with %v", s.If, s.With)
			}
		case strings.HasPrefix(s.Uses, "actions/cache/save@"):
			// Right after install verified the archive it saves.
			order = append(order, "save")
			if s.If != "${{ steps.install.outputs.save == 'true' }}" || s.With["key"] != "${{ steps.resolve.outputs.key }}" || s.With["path"] != "${{ steps.resolve.outputs.dir }}" {
				t.Errorf("cache save step: if %q with %v", s.If, s.With)
			}
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			order = append(order, "setup-go")
			if s.If != "${{ steps.install.outputs.build == 'true' }}" && s.If != reviewIf {
				t.Errorf("Go is set up unconditionally: if %q", s.If)
			}
		case strings.Contains(s.Run, "mcplint-action.sh"):
			cmd := strings.Trim(strings.Fields(s.Run)[1], "'\"")
			order = append(order, cmd)
			if !regexp.MustCompile(`\n` + regexp.QuoteMeta(cmd) + `\) \w+ ;;`).Match(sh) {
				t.Errorf("the script has no command %q", cmd)
			}
			if cmd == "build" && s.If != "${{ steps.install.outputs.build == 'true' }}" {
				t.Errorf("the build runs unconditionally: if %q", s.If)
			}
			if cmd == "reviewdog" && s.If != reviewIf {
				t.Errorf("reviewdog is built unconditionally: if %q", s.If)
			}
		}
	}
	if got := strings.Join(order, " "); got != "resolve restore install save setup-go build setup-go reviewdog run" {
		t.Errorf("action steps: %s", got)
	}
}
