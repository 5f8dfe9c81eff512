package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type workflow struct {
	On          map[string]map[string][]string `yaml:"on"`
	Permissions map[string]string
	Jobs        map[string]struct {
		Needs       any
		RunsOn      string `yaml:"runs-on"`
		Container   string
		Permissions map[string]string
		Environment map[string]string
		Strategy    struct {
			Matrix struct {
				Include []map[string]string
			}
		}
		Steps []struct {
			ID, Name, Uses, Run, If string
			With                    map[string]any
			Env                     map[string]string
		}
	}
}

func readWorkflow(t *testing.T) workflow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), ".github/workflows/release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatalf("release.yml: %v", err)
	}
	return w
}

// TestReleaseWorkflow checks the structure release.yml relies on, since it
// cannot run here: the tag trigger, the native build matrix and what each
// entry builds, the steps that build with the tested scripts, checksums, the
// GitHub release, and PyPI's trusted publishing. (.ci/run also lints it
// with actionlint.)
func TestReleaseWorkflow(t *testing.T) {
	w := readWorkflow(t)
	if len(w.On["push"]["tags"]) == 0 {
		t.Errorf("release.yml does not run on tags: %v", w.On)
	}
	if w.Permissions["contents"] != "read" {
		t.Errorf("default permissions %v, want contents: read", w.Permissions)
	}

	build := w.Jobs["build"]
	type target struct{ goos, goarch, libc string }
	want := map[target]*regexp.Regexp{
		{"linux", "amd64", ""}:     regexp.MustCompile(`^manylinux_2_28_x86_64$`),
		{"linux", "arm64", ""}:     regexp.MustCompile(`^manylinux_2_28_aarch64$`),
		{"linux", "amd64", "musl"}: regexp.MustCompile(`^musllinux_1_2_x86_64$`),
		{"darwin", "arm64", ""}:    regexp.MustCompile(`^macosx_12_0_arm64$`),
		{"darwin", "amd64", ""}:    regexp.MustCompile(`^macosx_12_0_x86_64$`),
		{"windows", "amd64", ""}:   regexp.MustCompile(`^win_amd64$`),
	}
	seen := map[target]bool{}
	for _, e := range build.Strategy.Matrix.Include {
		tg := target{e["goos"], e["goarch"], e["libc"]}
		re, ok := want[tg]
		if !ok || seen[tg] {
			t.Errorf("unexpected or repeated matrix entry %v", e)
			continue
		}
		seen[tg] = true
		if !re.MatchString(e["plat"]) {
			t.Errorf("%v: plat %q", tg, e["plat"])
		}
		// Native builds: each on a runner of its own OS and architecture.
		runner, container := e["runner"], e["container"]
		switch {
		case tg.goos == "linux" && tg.libc == "musl":
			if !strings.HasPrefix(container, "quay.io/pypa/musllinux_1_2_x86_64") {
				t.Errorf("%v: container %q", tg, container)
			}
		case tg.goos == "linux":
			arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[tg.goarch]
			if container != "quay.io/pypa/manylinux_2_28_"+arch {
				t.Errorf("%v: container %q, want the manylinux_2_28 image of its architecture", tg, container)
			}
			if (tg.goarch == "arm64") != strings.HasSuffix(runner, "-arm") || !strings.HasPrefix(runner, "ubuntu-") {
				t.Errorf("%v: runner %q", tg, runner)
			}
		case tg.goos == "darwin":
			if !strings.HasPrefix(runner, "macos-") || (tg.goarch == "amd64") != strings.HasSuffix(runner, "-intel") || container != "" {
				t.Errorf("%v: runner %q container %q", tg, runner, container)
			}
		case tg.goos == "windows":
			if !strings.HasPrefix(runner, "windows-") || container != "" {
				t.Errorf("%v: runner %q container %q", tg, runner, container)
			}
		}
		if e["python"] == "" {
			t.Errorf("%v: no python for build_wheel.py", tg)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("matrix covers %v, want %d targets", seen, len(want))
	}
	if build.RunsOn != "${{ matrix.runner }}" || build.Container != "${{ matrix.container }}" {
		t.Errorf("build runs on %q in %q", build.RunsOn, build.Container)
	}

	uses := func(job string) []string {
		var u []string
		for _, s := range w.Jobs[job].Steps {
			if s.Uses != "" {
				u = append(u, strings.Split(s.Uses, "@")[0])
			}
		}
		sort.Strings(u)
		return u
	}
	runs := func(job string) string {
		var r []string
		for _, s := range w.Jobs[job].Steps {
			r = append(r, s.Run)
		}
		return strings.Join(r, "\n")
	}
	if got := strings.Join(uses("build"), " "); got != "actions/checkout actions/setup-go actions/upload-artifact" {
		t.Errorf("build uses %s", got)
	}
	var buildEnv map[string]string
	for _, s := range build.Steps {
		if strings.Contains(s.Run, "scripts/release-build.sh") {
			buildEnv = s.Env
		}
		if s.Uses != "" && strings.HasPrefix(s.Uses, "actions/setup-go") && s.With["go-version-file"] != "go.mod" {
			t.Errorf("setup-go does not read go.mod: %v", s.With)
		}
	}
	for k, v := range map[string]string{"GOOS": "${{ matrix.goos }}", "GOARCH": "${{ matrix.goarch }}", "LIBC": "${{ matrix.libc }}", "EXPECT_PLAT": "${{ matrix.plat }}", "PYTHON": "${{ matrix.python }}", "COMMIT": "${{ github.sha }}"} {
		if buildEnv[k] != v {
			t.Errorf("the build step's %s = %q, want %q", k, buildEnv[k], v)
		}
	}

	release := w.Jobs["release"]
	if release.Permissions["contents"] != "write" || !strings.Contains(runs("release"), "scripts/release-checksums.sh") || !strings.Contains(runs("release"), "gh release create") {
		t.Errorf("release job: permissions %v, runs:\n%s", release.Permissions, runs("release"))
	}
	if needs, _ := release.Needs.([]any); len(needs) != 2 || needs[1] != "build" {
		t.Errorf("release needs %v, want [check build]", release.Needs)
	}
	pypi := w.Jobs["pypi"]
	if pypi.Permissions["id-token"] != "write" || len(pypi.Permissions) != 1 || pypi.Environment["name"] != "pypi" {
		t.Errorf("pypi job: permissions %v environment %v (trusted publishing needs id-token: write and nothing else)", pypi.Permissions, pypi.Environment)
	}
	if got := strings.Join(uses("pypi"), " "); got != "actions/download-artifact pypa/gh-action-pypi-publish" {
		t.Errorf("pypi uses %s", got)
	}

	// The scripts the workflow runs exist and are executable.
	for _, s := range []string{"release-build.sh", "release-checksums.sh", "build_wheel.py"} {
		if fi, err := os.Stat(filepath.Join(repoRoot(t), "scripts", s)); err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Errorf("scripts/%s: %v", s, err)
		}
	}
}

// TestReleaseTagCheck runs the check job's script: a tag whose version is
// not the one .pre-commit-hooks.yaml pins is refused.
func TestReleaseTagCheck(t *testing.T) {
	w := readWorkflow(t)
	var script string
	for _, s := range w.Jobs["check"].Steps {
		if s.ID == "version" {
			script = s.Run
		}
	}
	if script == "" {
		t.Fatal("no version step in the check job")
	}
	b, _ := os.ReadFile(filepath.Join(repoRoot(t), ".pre-commit-hooks.yaml"))
	m := regexp.MustCompile(`"mcplint==(\d+\.\d+\.\d+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no pin in .pre-commit-hooks.yaml")
	}
	for _, tc := range []struct {
		tag string
		ok  bool
	}{{"v" + string(m[1]), true}, {"v99.0.0", false}} {
		out := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command("bash", "-e", "-c", script)
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "TAG="+tc.tag, "GITHUB_OUTPUT="+out)
		log, err := cmd.CombinedOutput()
		got, _ := os.ReadFile(out)
		if (err == nil) != tc.ok {
			t.Errorf("tag %s: %v\n%s", tc.tag, err, log)
		}
		if tc.ok && string(got) != "version="+string(m[1])+"\n" {
			t.Errorf("tag %s: output %q", tc.tag, got)
		}
	}
}
