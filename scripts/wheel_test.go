// Package scripts holds the release scripts (release-build.sh,
// release-checksums.sh, build_wheel.py, pre_commit_backend.py) and their
// tests: the wheel of this platform is built, installed offline into a new
// virtual environment, and run as a user and as pre-commit would run it.
package scripts

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// relVersion is the version the test release is built with.
const relVersion = "0.1.0"

var (
	relOnce sync.Once
	relDir  string
	relErr  error
	relLog  string
	tmpRoot string
)

func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "mcplint-scripts-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tmpRoot = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// repoRoot is the repository's top folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// release builds this platform's release files once (release-build.sh, then
// release-checksums.sh) and returns their folder.
func release(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds mcplint")
	}
	python(t)
	relOnce.Do(func() {
		relDir = filepath.Join(tmpRoot, "release")
		var log bytes.Buffer
		for _, args := range [][]string{
			{"release-build.sh", "v" + relVersion, relDir},
			{"release-checksums.sh", relVersion, relDir},
		} {
			cmd := exec.Command("bash", args...)
			cmd.Env = append(os.Environ(), "COMMIT=0123456789abcdef", "DATE=2026-12-01T00:00:00Z", "SOURCE_DATE_EPOCH=1796083200")
			cmd.Stdout, cmd.Stderr = &log, &log
			if err := cmd.Run(); err != nil {
				relErr = fmt.Errorf("%s: %v", args[0], err)
				break
			}
		}
		relLog = log.String()
	})
	if relErr != nil {
		t.Fatalf("%v\n%s", relErr, relLog)
	}
	return relDir
}

// skipOrFail skips a test that needs a missing tool, unless
// MCPLINT_NO_SKIP is set (.ci/run sets it: there the tools must be there).
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("MCPLINT_NO_SKIP") != "" {
		t.Fatalf("%s (MCPLINT_NO_SKIP is set)", msg)
	}
	t.Skip(msg)
}

// python returns python3, skipping the test where it or its venv module is
// missing.
func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		skipOrFail(t, "python3 is not installed: the wheel is not tested")
	}
	if out, err := exec.Command(py, "-c", "import venv, ensurepip").CombinedOutput(); err != nil {
		skipOrFail(t, "python3 cannot make virtual environments (Debian: apt-get install python3-venv): %v\n%s", err, out)
	}
	return py
}

// pipEnv is the environment for pip: offline, and without this machine's
// pip settings (PIP_FIND_LINKS and the like).
func pipEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PIP_") && !strings.HasPrefix(kv, "VIRTUAL_ENV=") && !strings.HasPrefix(kv, "PYTHON") {
			env = append(env, kv)
		}
	}
	return append(env, "PIP_CONFIG_FILE="+os.DevNull, "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INPUT=1")
}

// venv makes a new virtual environment and returns its bin folder.
func venv(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "venv")
	cmd := exec.Command(python(t), "-m", "venv", dir)
	cmd.Env = pipEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python3 -m venv: %v\n%s", err, out)
	}
	if runtime.GOOS == "windows" {
		return filepath.Join(dir, "Scripts")
	}
	return filepath.Join(dir, "bin")
}

func pip(t *testing.T, bin, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "python"), append([]string{"-m", "pip", "install"}, args...)...)
	cmd.Dir = dir
	cmd.Env = pipEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pip install %v: %v\n%s", args, err, out)
	}
}

// wheelPath is the one wheel in dir.
func wheelPath(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.whl"))
	if len(m) != 1 {
		t.Fatalf("wheels in %s: %v", dir, m)
	}
	return m[0]
}

// glibcTag is the manylinux tag an ELF binary deserves: the newest GLIBC_
// symbol version it imports (what objdump -T lists), read with debug/elf,
// independently of build_wheel.py's own ELF reader.
func glibcTag(t *testing.T, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.ImportedSymbols()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^GLIBC_2\.(\d+)`)
	newest := -1
	for _, s := range syms {
		if m := re.FindStringSubmatch(s.Version); m != nil {
			n, _ := strconv.Atoi(m[1])
			newest = max(newest, n)
		}
	}
	if newest < 0 {
		t.Fatalf("%s imports no GLIBC_ symbol versions", path)
	}
	arch := map[elf.Machine]string{elf.EM_X86_64: "x86_64", elf.EM_AARCH64: "aarch64"}[f.Machine]
	return fmt.Sprintf("manylinux_2_%d_%s", newest, arch)
}

func TestWheelContents(t *testing.T) {
	dir := release(t)
	whl := wheelPath(t, dir)
	z, err := zip.OpenReader(whl)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	files := map[string][]byte{}
	var names []string
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = b
		names = append(names, f.Name)
		if f.Name == "mcplint-"+relVersion+".data/scripts/mcplint" && f.Mode().Perm() != 0o755 {
			t.Errorf("the script's mode is %v, want 0755 (pip keeps it executable)", f.Mode())
		}
	}
	sort.Strings(names)
	dist := "mcplint-" + relVersion
	want := []string{dist + ".data/scripts/mcplint", dist + ".dist-info/METADATA", dist + ".dist-info/RECORD", dist + ".dist-info/WHEEL"}
	if runtime.GOOS == "windows" {
		want[0] += ".exe"
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Fatalf("wheel files:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}

	// The platform tag, in the file name and in WHEEL.
	tag := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(whl), dist+"-py3-none-"), ".whl")
	if runtime.GOOS == "linux" {
		bin := filepath.Join(t.TempDir(), "mcplint")
		os.WriteFile(bin, files[want[0]], 0o755)
		if w := glibcTag(t, bin); tag != w {
			t.Errorf("wheel tag %s, but the binary's newest glibc symbol version gives %s", tag, w)
		}
	}
	wheel := string(files[dist+".dist-info/WHEEL"])
	for _, line := range []string{"Wheel-Version: 1.0", "Root-Is-Purelib: false", "Tag: py3-none-" + tag} {
		if !strings.Contains(wheel, line+"\n") {
			t.Errorf("WHEEL lacks %q:\n%s", line, wheel)
		}
	}
	meta := string(files[dist+".dist-info/METADATA"])
	for _, line := range []string{"Metadata-Version: 2.1", "Name: mcplint", "Version: " + relVersion, "Description-Content-Type: text/markdown"} {
		if !strings.Contains(meta, line+"\n") {
			t.Errorf("METADATA lacks %q", line)
		}
	}

	// RECORD: every other file with its sha256 and size, itself without.
	record := strings.Split(strings.TrimSpace(string(files[dist+".dist-info/RECORD"])), "\n")
	if len(record) != len(want) {
		t.Fatalf("RECORD has %d lines for %d files:\n%s", len(record), len(want), files[dist+".dist-info/RECORD"])
	}
	for _, line := range record {
		parts := strings.Split(line, ",")
		if len(parts) != 3 {
			t.Fatalf("RECORD line %q", line)
		}
		b, ok := files[parts[0]]
		if !ok {
			t.Errorf("RECORD names %s, not in the wheel", parts[0])
			continue
		}
		if parts[0] == dist+".dist-info/RECORD" {
			if parts[1] != "" || parts[2] != "" {
				t.Errorf("RECORD's own line %q", line)
			}
			continue
		}
		sum := sha256.Sum256(b)
		if h := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]); parts[1] != h || parts[2] != strconv.Itoa(len(b)) {
			t.Errorf("RECORD %s: %s,%s, want %s,%d", parts[0], parts[1], parts[2], h, len(b))
		}
	}
}

// mcplintOutput runs a command and returns its stdout and exit code.
func mcplintOutput(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	if env != nil {
		cmd.Env = env
	}
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return stdout.String(), cmd.ProcessState.ExitCode()
}

// TestWheelInstalled installs the wheel offline into a new virtual
// environment and runs the installed entry point: --version, and the
// README's example, whose findings must be those of `go run`.
func TestWheelInstalled(t *testing.T) {
	whl := wheelPath(t, release(t))
	bin := venv(t)
	pip(t, bin, t.TempDir(), whl)
	mcplint := filepath.Join(bin, "mcplint")

	out, code := mcplintOutput(t, t.TempDir(), nil, mcplint, "--version")
	if want := "mcplint " + relVersion + " (commit 0123456789ab, built 2026-12-01T00:00:00Z, "; code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("installed mcplint --version = %q (exit %d), want %q...", out, code, want)
	}

	root := repoRoot(t)
	// --no-cache: the release build's commit is fixed (COMMIT above), so a
	// cache entry an earlier test run's build wrote in the example's folder
	// would be taken as this build's.
	got, gotCode := mcplintOutput(t, root, nil, mcplint, "check", "--no-cache", "testdata/examples/weather")
	want, wantCode := mcplintOutput(t, root, nil, "go", "run", "./cmd/mcplint", "check", "--no-cache", "testdata/examples/weather")
	if !strings.Contains(want, "MCP101") || wantCode != 1 {
		t.Fatalf("go run ./cmd/mcplint check testdata/examples/weather: exit %d, no MCP101:\n%s", wantCode, want)
	}
	if got != want || gotCode != wantCode {
		t.Errorf("the installed mcplint (exit %d) differs from go run (exit %d):\n--- installed\n%s\n--- go run\n%s", gotCode, wantCode, got, want)
	}
}

// TestArchiveAndChecksums checks the release archive and the checksums file
// the action downloads and verifies.
func TestArchiveAndChecksums(t *testing.T) {
	dir := release(t)
	sums, err := os.ReadFile(filepath.Join(dir, "mcplint_"+relVersion+"_checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		hex, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("checksums line %q", line)
		}
		listed[name] = hex
	}
	var files int
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_checksums.txt") {
			continue
		}
		files++
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if fmt.Sprintf("%x", sha256.Sum256(b)) != listed[e.Name()] {
			t.Errorf("%s: checksum %q is not its SHA-256", e.Name(), listed[e.Name()])
		}
	}
	if files != 2 || len(listed) != 2 {
		t.Errorf("%d release files, %d checksums, want 2 (archive and wheel):\n%s", files, len(listed), sums)
	}
	archive := filepath.Join(dir, fmt.Sprintf("mcplint_%s_%s_%s.tar.gz", relVersion, runtime.GOOS, runtime.GOARCH))
	out, err := exec.Command("tar", "-tzf", archive).CombinedOutput()
	if err != nil || strings.Join(strings.Fields(string(out)), " ") != "mcplint README.md" {
		t.Errorf("tar -tzf %s: %v\n%s", archive, err, out)
	}
}

// wheelFor runs build_wheel.py on a binary; it returns the wheel's file
// name, or the script's error output.
func wheelFor(t *testing.T, binary, version string, extra ...string) (string, error) {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"build_wheel.py", "--binary", binary, "--version", version, "--out", out, "--readme", ""}, extra...)
	b, err := exec.Command(python(t), args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, b)
	}
	return filepath.Base(strings.TrimSpace(string(b))), nil
}

// TestWheelPlatformTags checks the tags build_wheel.py reads from binaries of
// other platforms (a small Go program, cross-compiled without cgo), and
// the PEP 440 versions.
func TestWheelPlatformTags(t *testing.T) {
	python(t)
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() { println(\"hello\") }\n"), 0o644)
	for _, tc := range []struct{ goos, goarch, version, want string }{
		// Go 1.26 needs macOS 12: its linker writes minos 12.0.
		{"darwin", "arm64", "v0.2.0", "mcplint-0.2.0-py3-none-macosx_12_0_arm64.whl"},
		{"darwin", "amd64", "0.2.0-rc.1", "mcplint-0.2.0rc1-py3-none-macosx_12_0_x86_64.whl"},
		{"windows", "amd64", "0.1.0-dev", "mcplint-0.1.0.dev0-py3-none-win_amd64.whl"},
		{"windows", "arm64", "1.0.0", "mcplint-1.0.0-py3-none-win_arm64.whl"},
		{"linux", "arm64", "1.0.0", ""}, // static: no glibc baseline to read
	} {
		t.Run(tc.goos+"_"+tc.goarch, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "hello")
			cmd := exec.Command("go", "build", "-o", bin, ".")
			cmd.Dir = src
			cmd.Env = append(os.Environ(), "GOOS="+tc.goos, "GOARCH="+tc.goarch, "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			got, err := wheelFor(t, bin, tc.version)
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "--plat-tag") {
					t.Errorf("a static binary got a tag: %s %v", got, err)
				}
				if got, err := wheelFor(t, bin, tc.version, "--plat-tag", "musllinux_1_2_aarch64"); err != nil || got != "mcplint-1.0.0-py3-none-musllinux_1_2_aarch64.whl" {
					t.Errorf("--plat-tag: %s %v", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("wheel %s %v, want %s", got, err, tc.want)
			}
		})
	}
	if _, err := wheelFor(t, filepath.Join(repoRoot(t), "README.md"), "1.0.0"); err == nil || !strings.Contains(err.Error(), "not an ELF, Mach-O or PE") {
		t.Errorf("a text file was accepted: %v", err)
	}
	if _, err := wheelFor(t, filepath.Join(repoRoot(t), "README.md"), "latest", "--plat-tag", "win_amd64"); err == nil || !strings.Contains(err.Error(), "PEP 440") {
		t.Errorf("version 'latest' was accepted: %v", err)
	}
}

// TestWheelMusl builds mcplint against musl (Debian's musl-tools), as the
// release's musllinux build does on Alpine: the wheel is tagged
// musllinux_1_2, and the binary finds what the glibc one finds.
func TestWheelMusl(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcplint")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the musl build is tested on linux/amd64")
	}
	if _, err := exec.LookPath("musl-gcc"); err != nil {
		skipOrFail(t, "musl-gcc is not installed (Debian: apt-get install musl-tools): the musllinux wheel is not tested")
	}
	if _, err := os.Stat("/lib/ld-musl-x86_64.so.1"); err != nil {
		skipOrFail(t, "musl's loader is not installed (Debian: apt-get install musl)")
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "release-build.sh", relVersion, out)
	cmd.Env = append(os.Environ(), "CC=musl-gcc", "LIBC=musl", "EXPECT_PLAT=musllinux_1_2_x86_64", "COMMIT=0123456789abcdef")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release-build.sh with musl: %v\n%s", err, b)
	}
	archive := filepath.Join(out, "mcplint_"+relVersion+"_linux_amd64_musl.tar.gz")
	if b, err := exec.Command("tar", "-C", out, "-xzf", archive, "mcplint").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, b)
	}
	f, err := elf.Open(filepath.Join(out, "mcplint"))
	if err != nil {
		t.Fatal(err)
	}
	libs, _ := f.ImportedLibraries()
	f.Close()
	if strings.Join(libs, " ") != "libc.so" {
		t.Errorf("the musl build links %v, want libc.so (musl) only", libs)
	}
	root := repoRoot(t)
	// --no-cache: the release build is versioned by relVersion and a fixed COMMIT, so a cache entry an
	// earlier build of the test wrote would match it whatever the code is now.
	got, gotCode := mcplintOutput(t, root, nil, filepath.Join(out, "mcplint"), "check", "--no-cache", "testdata/examples/weather")
	want, wantCode := mcplintOutput(t, root, nil, "go", "run", "./cmd/mcplint", "check", "--no-cache", "testdata/examples/weather")
	if got != want || gotCode != wantCode || !strings.Contains(got, "MCP101") {
		t.Errorf("the musl mcplint (exit %d) differs from go run (exit %d):\n--- musl\n%s\n--- go run\n%s", gotCode, wantCode, got, want)
	}
}

// TestWheelReadmeLinks: the wheel's long description (PyPI's project page)
// has no relative link: PyPI renders it with no repository around it, so
// each link to a file or a heading points at the repository on GitHub, at
// the release's tag (main for a dev build), as scripts/build_wheel.py
// writes them. The README itself keeps relative links (GitHub resolves them
// on any branch), so the test is not vacuous.
func TestWheelReadmeLinks(t *testing.T) {
	readme := filepath.Join(repoRoot(t), "README.md")
	src, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	relative := 0
	for _, target := range linkTargets(string(src)) {
		if !scheme.MatchString(target) {
			relative++
		}
	}
	if relative < 5 {
		t.Fatalf("the README has %d relative links: the test would check nothing", relative)
	}
	for version, ref := range map[string]string{"0.3.0": "v0.3.0", "v0.2.0-rc.1": "v0.2.0-rc.1", "0.1.0-dev": "main"} {
		// Any file is a binary once --plat-tag says which.
		out := t.TempDir()
		b, err := exec.Command(python(t), "build_wheel.py", "--binary", readme, "--version", version, "--out", out,
			"--plat-tag", "win_amd64", "--readme", readme).CombinedOutput()
		if err != nil {
			t.Fatalf("build_wheel.py: %v\n%s", err, b)
		}
		desc := longDescription(t, wheelPath(t, out))
		targets := linkTargets(desc)
		base := "https://github.com/mcplint/mcplint/"
		ours := 0
		for _, target := range targets {
			switch {
			case !scheme.MatchString(target) && !strings.HasPrefix(target, "//"):
				t.Errorf("%s: relative link %q in the wheel's README", version, target)
			case strings.HasPrefix(target, base+"blob/"+ref+"/") || strings.HasPrefix(target, base+"raw/"+ref+"/"):
				ours++
			}
		}
		if ours < relative {
			t.Errorf("%s: %d links point at %s, want the README's %d relative ones", version, ours, base+"blob/"+ref, relative)
		}
	}
}

// linkTargets returns the targets of a Markdown text's links and images
// (inline, reference definitions, HTML href and src) outside code.
func linkTargets(text string) []string {
	html := regexp.MustCompile(`\b(?:href|src)="([^"]*)"`)
	var out []string
	lines, _ := prose(text)
	for _, l := range lines {
		for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
			out = append(out, m[1])
		}
		for _, m := range html.FindAllStringSubmatch(l, -1) {
			out = append(out, m[1])
		}
		if m := refLink.FindStringSubmatch(l); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// longDescription is the body of a wheel's METADATA (after its headers).
func longDescription(t *testing.T, whl string) string {
	t.Helper()
	z, err := zip.OpenReader(whl)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		if strings.HasSuffix(f.Name, ".dist-info/METADATA") {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			_, body, ok := strings.Cut(string(b), "\n\n")
			if !ok || !strings.Contains(string(b), "Description-Content-Type: text/markdown\n") {
				t.Fatalf("%s: METADATA has no Markdown long description", whl)
			}
			return body
		}
	}
	t.Fatalf("%s has no METADATA", whl)
	return ""
}
