//go:build unix

package workspace

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/safeio"
)

// symlinks makes each "link=target" symlink under dir.
func symlinks(t *testing.T, dir string, links ...string) {
	t.Helper()
	for _, l := range links {
		name, target, _ := strings.Cut(l, "=")
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// walkErrs walks root and returns the files found (relative to root) and
// each error's path (relative) and message.
func walkErrs(t *testing.T, roots []string, rel string, opts Options) (string, map[string]error) {
	t.Helper()
	files, errs := Walk(roots, opts)
	var got []string
	for _, f := range files {
		r, _ := filepath.Rel(rel, filepath.FromSlash(f.Path))
		got = append(got, filepath.ToSlash(r))
	}
	bad := map[string]error{}
	for _, err := range errs {
		var pe *PathError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *PathError", err)
		}
		r, _ := filepath.Rel(rel, filepath.FromSlash(pe.Path))
		bad[filepath.ToSlash(r)] = pe.Err
	}
	return strings.Join(got, " "), bad
}

// A symlink is followed only to what mcplint would have read by its own
// name: never into .git (where a CI checkout keeps the job's token), and
// only to a file of the link's kind and, for a dependency file, format.
func TestSymlinkFollowedOnlyToItsKind(t *testing.T) {
	const token = "extraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0U="
	dir := tree(t, ".git/config=[http]\n\t"+token+"\n", ".git/HEAD=ref: refs/heads/main\n", ".hg/hgrc=x\n",
		"gha-creds-x.json={}\n", ".netrc=machine x\n", ".env=A=1\n", "config=x\n",
		"base/requirements.txt=mcp\n", "base/pyproject.toml=[project]\n", "lib/real.py=x = 1\n", "lib/uv.lock=\n")
	symlinks(t, dir,
		"requirements-dev.txt=.git/config", // the attack
		"server.py=.git/HEAD",
		"requirements-hg.txt=.hg/hgrc",
		"requirements.txt=gha-creds-x.json",
		"requirements-netrc.txt=.netrc",
		"requirements-env.txt=.env",
		"constraints.txt=config",
		"pyproject.toml=base/requirements.txt", // a dependency file of another format
		"uv.lock=base/pyproject.toml",
		"notpy.py=lib/uv.lock",                   // a .py to a dependency file
		"dotgit/requirements.txt=../.git/config", // through ..
		"chain-requirements.txt=requirements-dev.txt",
		"gitdir=.git",
		"requirements-viadir.txt=gitdir/config", // through a symlinked folder
		// followed:
		"requirements-ok.txt=base/requirements.txt",
		"dev/constraints.in=../base/requirements.txt",
		"alias.py=lib/real.py",
		"pylock.dev.toml=lib/pylock.toml",
	)
	if err := os.WriteFile(filepath.Join(dir, "lib", "pylock.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, bad := walkErrs(t, []string{dir}, dir, Options{})
	want := "alias.py base/pyproject.toml base/requirements.txt dev/constraints.in lib/pylock.toml lib/real.py lib/uv.lock pylock.dev.toml requirements-ok.txt"
	if got != want {
		t.Errorf("files:\n got %s\nwant %s", got, want)
	}
	vcs := []string{"requirements-dev.txt", "server.py", "requirements-hg.txt", "dotgit/requirements.txt", "chain-requirements.txt", "requirements-viadir.txt"}
	other := []string{"requirements.txt", "requirements-netrc.txt", "requirements-env.txt", "constraints.txt", "pyproject.toml", "uv.lock", "notpy.py"}
	for _, p := range vcs {
		var ve *safeio.VCSInternalError
		if err := bad[p]; !errors.As(err, &ve) || !Refused(&PathError{p, err}) {
			t.Errorf("%s: %v, want a refusal into version-control internals", p, err)
		}
		delete(bad, p)
	}
	for _, p := range other {
		if err := bad[p]; !errors.Is(err, ErrSymlinkNotFollowed) || !Refused(&PathError{p, err}) || !strings.Contains(err.Error(), "symlink not followed") {
			t.Errorf("%s: %v, want symlink not followed", p, err)
		}
		delete(bad, p)
	}
	for p, err := range bad {
		t.Errorf("unexpected error %s: %v", p, err)
	}
}

// A root given explicitly that is a symlink is followed only as the walk
// follows one (pre-commit's --all-files passes every file of a pull
// request), and into the working tree: the working directory when the link
// is under it.
func TestExplicitSymlinkRoot(t *testing.T) {
	outer := t.TempDir()
	dir := filepath.Join(outer, "repo")
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"../secret.txt": "hunter2\n", ".git/config": "x\n", "reqs.txt": "mcp\n", "real/app.py": "x = 1\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	symlinks(t, dir, "requirements.txt=.git/config", "requirements-out.txt=../secret.txt", "requirements-ok.txt=reqs.txt.requirements.txt",
		"out=..", "in=real", "env.py=/proc/self/environ")
	if err := os.WriteFile(filepath.Join(dir, "reqs.txt.requirements.txt"), []byte("mcp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for root, want := range map[string]string{
		"requirements.txt":     "version-control internals",
		"requirements-out.txt": "outside the scanned tree",
		"env.py":               "outside the scanned tree",
		"out":                  "a symlink to a folder outside the working tree",
		"requirements-ok.txt":  "",
		"in":                   "",
	} {
		files, errs := Walk([]string{root}, Options{})
		if want == "" {
			if len(errs) > 0 || len(files) != 1 {
				t.Errorf("%s: files %v, errors %v; want it followed", root, files, errs)
			}
			continue
		}
		if len(files) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("%s: files %v, errors %v; want %q", root, files, errs, want)
		}
	}
}

// --tracked-only: the walk visits only what git tracks (its index: a file
// added but not committed counts); a file given as a root is read anyway.
func TestTrackedOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := tree(t, "server.py=x = 1\n", "requirements.txt=mcp\n", "gha-creds-tracked.json={}\n", "added.py=y = 2\n",
		"untracked.py=z = 3\n", "sub/requirements-ci.txt=mcp\n", "sub/kept.py=\n")
	symlinks(t, dir, "requirements-creds.txt=gha-creds-x.json", "requirements-link.txt=sub/requirements-ci.txt", "requirements-linkok.txt=requirements.txt")
	if err := os.WriteFile(filepath.Join(dir, "gha-creds-x.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "server.py", "requirements.txt", "gha-creds-tracked.json", "sub/kept.py", "requirements-link.txt", "requirements-linkok.txt")
	gitRun("commit", "-q", "-m", "x")
	gitRun("add", "added.py")
	tr, err := GitTracked([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	got, bad := walkErrs(t, []string{dir}, dir, Options{Tracked: tr})
	// requirements-link.txt is tracked, but leads to a file a CI step wrote.
	// A symlink that is not followed is refused before anything else.
	if got != "added.py requirements-linkok.txt requirements.txt server.py sub/kept.py" || len(bad) != 1 || !errors.Is(bad["requirements-creds.txt"], ErrSymlinkNotFollowed) {
		t.Errorf("tracked only: %s, errors %v", got, bad)
	}
	var skipped []string
	for _, p := range tr.Skipped() {
		r, _ := filepath.Rel(dir, filepath.FromSlash(p))
		skipped = append(skipped, filepath.ToSlash(r))
	}
	if s := strings.Join(skipped, " "); s != "requirements-link.txt sub/requirements-ci.txt untracked.py" {
		t.Errorf("skipped: %s", s)
	}
	if tr.Has(filepath.Join(dir, "gha-creds-x.json")) || !tr.Has(filepath.Join(dir, "gha-creds-tracked.json")) {
		t.Error("Has: the untracked JSON is tracked, or the tracked one is not")
	}
	// A file given as a root is the user's choice.
	tr, _ = GitTracked([]string{dir})
	untracked := filepath.Join(dir, "untracked.py")
	if files, errs := Walk([]string{untracked}, Options{Tracked: tr}); len(files) != 1 || len(errs) != 0 || !tr.Has(untracked) {
		t.Errorf("an untracked file given as a root: %v %v", files, errs)
	}
	// Outside a work tree, git says so.
	if _, err := GitTracked([]string{t.TempDir()}); !errors.Is(err, ErrNoGit) {
		t.Errorf("outside a work tree: %v", err)
	}
	if InWorkTree(t.TempDir()) || !InWorkTree(filepath.Join(dir, "sub")) {
		t.Error("InWorkTree")
	}
}

// The tracked set looks at a file once per run: the walk knows which
// entries are symlinks (no lstat), and a file read later (every file the
// analysis reads is asked again) is answered from what the walk found.
func TestTrackedLooksOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := tree(t, "a.py=x = 1\n", "requirements.txt=mcp\n", "sub/b.py=\n", "sub/c.py=\n", "untracked.py=\n")
	symlinks(t, dir, "requirements-dev.txt=requirements.txt")
	cmd := exec.Command("git", "-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", "init", "-q")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cmd = exec.Command("git", "-C", dir, "add", "a.py", "requirements.txt", "sub", "requirements-dev.txt")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	tr, err := GitTracked([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var lstats []string
	t.Cleanup(func() { lstat = os.Lstat })
	lstat = func(p string) (os.FileInfo, error) {
		lstats = append(lstats, p)
		return os.Lstat(p)
	}
	files, errs := Walk([]string{dir}, Options{Tracked: tr})
	if len(files) != 5 || len(errs) != 0 {
		t.Fatalf("walked %v, errors %v; want the five tracked files", files, errs)
	}
	for _, f := range files {
		if !tr.Has(filepath.FromSlash(f.Path)) {
			t.Errorf("Has(%s) after the walk: false", f.Path)
		}
	}
	if tr.Has(filepath.Join(dir, "untracked.py")) {
		t.Error("Has(untracked.py): true")
	}
	if len(lstats) != 0 {
		t.Errorf("%d lstat calls (%v), want none: the walk's entries say which files are symlinks", len(lstats), lstats)
	}
}

// Without git on PATH, GitTracked fails with ErrNoGit (the caller says so).
func TestTrackedWithoutGit(t *testing.T) {
	dir := tree(t, ".git/HEAD=", "a.py=")
	t.Setenv("PATH", t.TempDir())
	if _, err := GitTracked([]string{dir}); !errors.Is(err, ErrNoGit) || !strings.Contains(err.Error(), "executable file not found") {
		t.Errorf("GitTracked without git: %v", err)
	}
}
