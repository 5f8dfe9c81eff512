//go:build unix

package deps

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// secret is what a file outside the scanned tree holds; no message may
// carry it.
const secret = "AWS_SECRET_ACCESS_KEY=hunter2"

// hostileTree writes outer/secret.txt and outer/repo/ with the given files,
// and returns outer/repo.
func hostileTree(t *testing.T, files map[string]string) string {
	t.Helper()
	outer := t.TempDir()
	repo := filepath.Join(outer, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outer, "secret.txt"), []byte(secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

func loadWithWatchdog(t *testing.T, dir string, files []string, opts Options) (*Project, []error) {
	t.Helper()
	type out struct {
		p    *Project
		errs []error
	}
	done := make(chan out, 1)
	go func() { p, errs := Load(dir, files, opts); done <- out{p, errs} }()
	select {
	case o := <-done:
		return o.p, o.errs
	case <-time.After(2 * time.Minute): // generous: it only turns a hang into a failure
		t.Fatal("Load blocked (watchdog)")
	}
	return nil, nil
}

// messages joins the errors and notes of a load.
func messages(p *Project, errs []error) string {
	var b strings.Builder
	for _, err := range errs {
		b.WriteString(err.Error() + "\n")
	}
	for _, n := range p.Notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}

// Includes that lead outside the scanned tree (an absolute path, ../, a
// symlink) are not read: the message quotes the path, never the content.
func TestIncludesStayInsideTheTree(t *testing.T) {
	environ := ""
	if b, err := os.ReadFile("/proc/self/environ"); err == nil && len(b) > 0 {
		environ = "-r /proc/self/environ\n"
	}
	repo := hostileTree(t, map[string]string{
		"requirements.txt": "mcp>=1.10,<2\n" + environ + "-r ../secret.txt\n-c ../secret.txt\n--requirement=link.txt\n-r up/secret.txt\n-r sub/ok.txt\n",
		"setup.cfg":        "[options]\ninstall_requires =\n    file: ../secret.txt\n",
	})
	if err := os.WriteFile(filepath.Join(repo, "sub", "ok.txt"), []byte("anyio>=4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret.txt", filepath.Join(repo, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(repo, "up")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.ToSlash(repo)
	files := []string{dir + "/requirements.txt", dir + "/setup.cfg"}
	for _, opts := range []Options{{}, {Root: repo}} {
		p, errs := loadWithWatchdog(t, dir, files, opts)
		msgs := messages(p, errs)
		if strings.Contains(msgs, "hunter2") || strings.Contains(msgs, "PATH=") {
			t.Fatalf("a message carries the content of a file outside the tree:\n%s", msgs)
		}
		for _, want := range []string{
			`-r "../secret.txt": the file is outside the scanned tree: not read`,
			`-c "../secret.txt": the file is outside the scanned tree: not read`,
			`--requirement "link.txt": the file is outside the scanned tree: not read`,
			`-r "up/secret.txt": the file is outside the scanned tree: not read`,
			`file: "../secret.txt": the file is outside the scanned tree: not read`,
		} {
			if !strings.Contains(msgs, want) {
				t.Errorf("no %q in:\n%s", want, msgs)
			}
		}
		if environ != "" && !strings.Contains(msgs, `-r "/proc/self/environ": the file is outside the scanned tree`) {
			t.Errorf("/proc/self/environ not refused:\n%s", msgs)
		}
		for _, f := range p.Files {
			if !strings.HasPrefix(f.Path, dir+"/") {
				t.Errorf("read %s, outside %s", f.Path, dir)
			}
		}
		if p.Describe("anyio") != "anyio >=4 in sub/ok.txt" && !strings.Contains(p.Describe("anyio"), ">=4") {
			t.Errorf("the include inside the tree was not read: %s", p.Describe("anyio"))
		}
	}
}

// An include inside the tree that is a named pipe or a device is refused,
// never read (a pipe would block, a device would fill the memory).
func TestIncludesOnlyRegularFiles(t *testing.T) {
	repo := hostileTree(t, map[string]string{"requirements.txt": "-r pipe.txt\n-r zero.txt\nmcp>=1.10,<2\n"})
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe.txt"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(repo, "zero.txt")); err != nil {
		t.Fatal(err)
	}
	// The root is the filesystem's top: only the file type stops the read.
	p, errs := loadWithWatchdog(t, filepath.ToSlash(repo), []string{filepath.ToSlash(repo) + "/requirements.txt"}, Options{Root: "/"})
	msgs := messages(p, errs)
	for _, want := range []string{`-r "pipe.txt": cannot read the included file: not a regular file (a named pipe)`, `-r "zero.txt": cannot read the included file: not a regular file (a character device)`} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no %q in:\n%s", want, msgs)
		}
	}
	if p.MCP1() != Yes {
		t.Errorf("the rest of the file was not read: MCP1=%s", p.MCP1())
	}
}

// No message quotes more than an excerpt of the file, and none carries a
// control character.
func TestMessagesQuoteAnExcerpt(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for name, src := range map[string]string{
		"requirements.txt": "mcp>=1,<2 (" + long + "\n!!" + long + "\nmcp ==\x1b[2J" + long + "\n",
		"pyproject.toml":   "[project]\ndependencies = [\"!!" + long + "\", \"mcp>=1; os_name == '" + long + "\"]\n",
		"setup.py":         "from setuptools import setup\nsetup(install_requires=[\"mcp\" + \"" + long + "\"])\n",
		"uv.lock":          "[[package]]\nname = \"mcp\"\n" + long + " = 1\n" + long + " = 2\n",
	} {
		p, errs := Load(".", []string{name}, Options{ReadFile: func(string) ([]byte, error) { return []byte(src), nil }})
		if len(errs)+len(p.Notes) == 0 {
			t.Errorf("%s: no message", name)
		}
		for _, m := range strings.Split(strings.TrimSpace(messages(p, errs)), "\n") {
			if n := utf8.RuneCountInString(m); n > 400 {
				t.Errorf("%s: a message of %d characters: %.120s...", name, n, m)
			}
			if strings.ContainsAny(m, "\x1b\r") {
				t.Errorf("%s: a message with a control character: %q", name, m)
			}
		}
	}
}

// Includes into a version-control folder (where a CI checkout keeps the
// job's token, in .git/config) are refused by name or through a symlink,
// inside the scanned tree too; the message names the path and quotes
// nothing.
func TestIncludesNeverReadVCSInternals(t *testing.T) {
	const token = "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0U="
	repo := hostileTree(t, map[string]string{
		"requirements.txt": "mcp>=1.10,<2\n-r .git/config\n-c .hg/hgrc\n-r sub/../.git/config\n-r ./.GIT/config\n-r gitlink.txt\n",
		"setup.cfg":        "[options]\ninstall_requires =\n    file: .svn/entries\n",
	})
	for _, f := range []string{".git/config", ".hg/hgrc", ".svn/entries"} {
		if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), []byte("[http]\n\textraheader = "+token+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".git/config", filepath.Join(repo, "gitlink.txt")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.ToSlash(repo)
	for _, opts := range []Options{{}, {Root: repo}} {
		p, errs := loadWithWatchdog(t, dir, []string{dir + "/requirements.txt", dir + "/setup.cfg"}, opts)
		msgs := messages(p, errs)
		if strings.Contains(msgs, "AUTHORIZATION") || strings.Contains(msgs, "eC1h") || strings.Contains(msgs, "extraheader") {
			t.Fatalf("a message quotes version-control internals:\n%s", msgs)
		}
		for _, want := range []string{
			`-r ".git/config": the file is inside version-control internals (.git): not read`,
			`-c ".hg/hgrc": the file is inside version-control internals (.hg): not read`,
			`-r "sub/../.git/config": the file is inside version-control internals (.git): not read`,
			`-r "./.GIT/config": the file is inside version-control internals (.git): not read`,
			`-r "gitlink.txt": cannot read the included file: a symlink into version-control internals (.git): not read`,
			`file: ".svn/entries": the file is inside version-control internals (.svn): not read`,
		} {
			if !strings.Contains(msgs, want) {
				t.Errorf("no %q in:\n%s", want, msgs)
			}
		}
		for _, f := range p.Files {
			if strings.Contains(f.Path, ".git") || strings.Contains(f.Path, "gitlink") {
				t.Errorf("read %s", f.Path)
			}
		}
		if p.MCP1() != Yes {
			t.Errorf("the rest of the file was not read: MCP1=%s", p.MCP1())
		}
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]string{
		"requirements.txt": "requirements", "requirements-dev.txt": "requirements", "dev-requirements.in": "requirements",
		"constraints.txt": "requirements", "pylock.toml": "pylock", "pylock.dev.toml": "pylock", "uv.lock": "uv.lock",
		"pyproject.toml": "pyproject.toml", "setup.py": "setup.py", "config": "", ".env": "", "creds.json": "", ".netrc": "",
		"requirements.json": "", "HEAD": "",
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", name, got, want)
		}
		if IsDependencyFile(name) != (want != "") {
			t.Errorf("IsDependencyFile(%q) = %v", name, !(want != ""))
		}
	}
}
