//go:build unix

package safeio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.py")
	if err := os.WriteFile(p, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(p, Python)
	if err != nil || string(b) != "x = 1\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(link, Python); err != nil || string(b) != "x = 1\n" {
		t.Fatalf("ReadFile through a symlink = %q, %v", b, err)
	}
}

// watchdog fails the test if f does not return: a read that blocks is the
// bug being tested. The limit is generous; nothing is asserted about time.
func watchdog(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // generous: it only turns a hang into a failure
		t.Fatal("the read blocked (watchdog)")
	}
}

func TestReadFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "server.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link} {
		watchdog(t, func() {
			_, err := ReadFile(p, Python)
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("ReadFile(%s) = %v, want a named-pipe refusal", p, err)
			}
		})
	}
}

func TestReadFileRefusesDevicesAndDirectories(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "uv.lock")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", "/dev/urandom", link, dir} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		watchdog(t, func() {
			if _, err := ReadFile(p, Dependency); !errors.Is(err, ErrNotRegular) {
				t.Errorf("ReadFile(%s) = %v, want a refusal", p, err)
			}
		})
	}
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("a", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	small := Kind{Name: "test files", Max: 100}
	_, err := ReadFile(p, small)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "101 bytes, over the 100-byte limit for test files") {
		t.Fatalf("ReadFile over the limit = %v", err)
	}
	if b, err := ReadFile(p, Kind{Name: "test files", Max: 101}); err != nil || len(b) != 101 {
		t.Fatalf("ReadFile at the limit = %d bytes, %v", len(b), err)
	}
}

// A file that reports a size of 0 but has more (as /proc files do) is still
// bounded by the read.
func TestReadFileLimitWhileReading(t *testing.T) {
	p := "/proc/self/status"
	st, err := os.Stat(p)
	if err != nil || st.Size() != 0 {
		t.Skip("no /proc file that reports size 0")
	}
	_, err = ReadFile(p, Kind{Name: "test files", Max: 10})
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 0 {
		t.Fatalf("ReadFile(%s) with a 10-byte limit = %v", p, err)
	}
}

func TestWithin(t *testing.T) {
	outer := t.TempDir()
	root := filepath.Join(outer, "repo")
	for _, d := range []string{root, filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "base.txt"))
	write(filepath.Join(outer, "secret.txt"))
	if err := os.Symlink(filepath.Join(outer, "secret.txt"), filepath.Join(root, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/base.txt", filepath.Join(root, "inner.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outer, filepath.Join(root, "up")); err != nil {
		t.Fatal(err)
	}
	rootLink := filepath.Join(outer, "repolink")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		root, path string
		outside    bool
	}{
		{root, filepath.Join(root, "sub", "base.txt"), false},
		{root, filepath.Join(root, "inner.txt"), false},
		{root, root, false},
		{rootLink, filepath.Join(rootLink, "sub", "base.txt"), false},
		{root, filepath.Join(root, "sub", "..", "..", "secret.txt"), true},
		{root, filepath.Join(outer, "secret.txt"), true},
		{root, "/proc/self/environ", true},
		{root, "/nonexistent/file", true},
		{root, filepath.Join(root, "escape.txt"), true},
		{root, filepath.Join(root, "up", "secret.txt"), true},
		{rootLink, filepath.Join(rootLink, "escape.txt"), true},
		{filepath.Join(root, "sub"), filepath.Join(root, "sub-other"), true},
	} {
		err := Within(c.root, c.path)
		var oe *OutsideError
		if got := errors.As(err, &oe); got != c.outside {
			t.Errorf("Within(%s, %s) = %v, want outside=%v", c.root, c.path, err, c.outside)
		}
	}
	// One Root answers a burst of checks, relative paths (from the working
	// directory) included. (Within is NewRoot(root).Within: the table above
	// checks it.)
	t.Chdir(outer)
	r := NewRoot("repo")
	for _, c := range []struct {
		path    string
		outside bool
	}{
		{"repo/sub/base.txt", false}, {"repo/inner.txt", false}, {filepath.Join(root, "sub", "base.txt"), false}, {"repo", false},
		{"repo/escape.txt", true}, {"repo/up/secret.txt", true}, {"secret.txt", true}, {"repo/../secret.txt", true}, {"/proc/self/environ", true},
	} {
		err := r.Within(c.path)
		var oe *OutsideError
		if got := errors.As(err, &oe); got != c.outside || !c.outside && err != nil {
			t.Errorf("Root(repo).Within(%s) = %v, want outside=%v", c.path, err, c.outside)
		}
	}
	if err := r.Within("repo/missing.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file under the root: %v, want not-exist", err)
	}
	if err := NewRoot("nothere").Within("nothere/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing root: %v, want not-exist", err)
	}
}

// TestWithinAsksWorkingDirectoryForRelativePaths checks that Within asks
// for the working directory only to make a relative root or path absolute,
// and a Root at most once for its burst of checks.
func TestWithinAsksWorkingDirectoryForRelativePaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := 0
	defer func(g func() (string, error)) { getwd = g }(getwd)
	getwd = func() (string, error) { calls++; return os.Getwd() }
	if err := Within(dir, filepath.Join(dir, "a.txt")); err != nil || calls != 0 {
		t.Errorf("absolute root and path: %v, %d calls of Getwd, want none", err, calls)
	}
	t.Chdir(dir)
	calls = 0
	if err := Within(dir, "a.txt"); err != nil || calls != 1 {
		t.Errorf("a relative path: %v, %d calls of Getwd, want 1", err, calls)
	}
	calls = 0
	r := NewRoot(".")
	for _, p := range []string{"a.txt", ".", filepath.Join(dir, "a.txt")} {
		if err := r.Within(p); err != nil {
			t.Errorf("Root(.).Within(%s) = %v", p, err)
		}
	}
	if calls != 1 {
		t.Errorf("a Root with a relative root: %d calls of Getwd, want 1", calls)
	}
}
