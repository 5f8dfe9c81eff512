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
