package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
)

// tree writes "path=content" entries with testfs.Write.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	m := map[string]string{}
	for _, f := range files {
		name, content, _ := strings.Cut(f, "=")
		m[name] = content
	}
	return testfs.Write(t, m)
}

func walk(t *testing.T, root string, opts Options) string {
	t.Helper()
	files, errs := Walk([]string{root}, opts)
	for _, err := range errs {
		t.Errorf("walk error: %v", err)
	}
	var out []string
	for _, f := range files {
		rel, err := filepath.Rel(root, filepath.FromSlash(f.Path))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return strings.Join(out, " ")
}

func TestGitignore(t *testing.T) {
	dir := tree(t,
		".git/info/exclude=local_only.py\n",
		".gitignore=# comment\nbuild/\n*.gen.py\n/top_only.py\n!keep.gen.py\ndocs/api\n\\#hash.py\n",
		"app.py=", "top_only.py=", "sub/top_only.py=", "a.gen.py=", "keep.gen.py=", "#hash.py=", "local_only.py=",
		"build/x.py=", "sub/build/y.py=", "build.py=",
		"docs/api/z.py=", "src/docs/api/z.py=",
		"pkg/.gitignore=*.py\n!main.py\n", "pkg/main.py=", "pkg/other.py=", "pkg/requirements.txt=mcp\n",
		"pkg/inner/.gitignore=!other.py\n", "pkg/inner/other.py=",
	)
	got := walk(t, dir, Options{})
	// keep.gen.py is re-included by "!keep.gen.py", pkg/inner/other.py by
	// the deeper file.
	want := "app.py build.py keep.gen.py pkg/inner/other.py pkg/main.py pkg/requirements.txt src/docs/api/z.py sub/top_only.py"
	if got != want {
		t.Errorf("with .gitignore:\n got %s\nwant %s", got, want)
	}
	all := walk(t, dir, Options{NoGitignore: true})
	if !strings.Contains(all, "build/x.py") || !strings.Contains(all, "a.gen.py") || !strings.Contains(all, "local_only.py") {
		t.Errorf("NoGitignore: %s", all)
	}
}

// A lock file that a .gitignore pattern names is still read (lastmile-ai's
// mcp-agent lists uv.lock in .gitignore and commits it); Python files and
// manifests the pattern names are not, nor a lock in an ignored folder.
func TestGitignoredLockRead(t *testing.T) {
	dir := tree(t,
		".gitignore=uv.lock\npoetry.lock\npylock.*.toml\nrequirements-local.txt\nscratch.py\nbuild/\n",
		"pyproject.toml=", "uv.lock=", "server.py=", "scratch.py=", "requirements-local.txt=mcp\n",
		"sub/poetry.lock=", "sub/pylock.dev.toml=", "build/uv.lock=",
	)
	want := "pyproject.toml server.py sub/poetry.lock sub/pylock.dev.toml uv.lock"
	if got := walk(t, dir, Options{}); got != want {
		t.Errorf("gitignored locks:\n got %s\nwant %s", got, want)
	}
}

func TestGitignoreAboveRoot(t *testing.T) {
	dir := tree(t, ".git/HEAD=", ".gitignore=generated/\n", "src/app.py=", "src/generated/g.py=")
	if got := walk(t, filepath.Join(dir, "src"), Options{}); got != "app.py" {
		t.Errorf("scanning a sub-folder: %s", got)
	}
	// Outside a repository, a parent's .gitignore does not apply.
	plain := tree(t, ".gitignore=generated/\n", "src/app.py=", "src/generated/g.py=")
	if got := walk(t, filepath.Join(plain, "src"), Options{}); got != "app.py generated/g.py" {
		t.Errorf("outside a repository: %s", got)
	}
}

func TestDefaultSkips(t *testing.T) {
	dir := tree(t, "app.py=", ".hidden/h.py=", "node_modules/n.py=", ".venv/v.py=", "env/pyvenv.cfg=", "env/lib/e.py=",
		"__pycache__/c.py=", "notes.txt=", "requirements-dev.txt=x\n")
	if got := walk(t, dir, Options{}); got != "app.py requirements-dev.txt" {
		t.Errorf("default: %s", got)
	}
	// Without .gitignore matching the walk has no folder open: the venv is
	// found by its path.
	if got := walk(t, dir, Options{NoGitignore: true}); got != "app.py requirements-dev.txt" {
		t.Errorf("NoGitignore: %s", got)
	}
	if got := walk(t, dir, Options{IncludeHidden: true}); got != ".hidden/h.py app.py requirements-dev.txt" {
		t.Errorf("IncludeHidden: %s", got)
	}
	excl := func(p string, isDir bool) bool { return strings.HasSuffix(p, "/app.py") }
	if got := walk(t, dir, Options{Exclude: excl}); got != "requirements-dev.txt" {
		t.Errorf("Exclude: %s", got)
	}
	// A root given explicitly is visited even when its name is skipped.
	if got := walk(t, filepath.Join(dir, "node_modules"), Options{}); got != "n.py" {
		t.Errorf("explicit root: %s", got)
	}
}

func TestSymlinkLoop(t *testing.T) {
	dir := tree(t, "a/app.py=")
	if err := os.Symlink(dir, filepath.Join(dir, "a", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a", "app.py"), filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	if got := walk(t, dir, Options{}); got != "a/app.py link.py" {
		t.Errorf("symlinks: %s", got)
	}
}

// A root that is a symlink to a directory is walked through the link (it was
// visited as one entry, so a scan of it found nothing and passed), and the
// paths still start with the root as given.
func TestSymlinkedRoot(t *testing.T) {
	dir := tree(t, "real/app.py=", "real/pkg/requirements.txt=", "real/.hidden/x.py=")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Fatal(err)
	}
	if got := walk(t, link, Options{}); got != "app.py pkg/requirements.txt" {
		t.Errorf("symlinked root: %q", got)
	}
	files, _ := Walk([]string{link}, Options{})
	for _, f := range files {
		if !strings.HasPrefix(f.Path, filepath.ToSlash(link)+"/") {
			t.Errorf("path %q does not start with the root as given", f.Path)
		}
	}
}
