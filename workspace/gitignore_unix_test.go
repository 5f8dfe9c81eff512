//go:build unix

package workspace

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A .gitignore that cannot be read (a named pipe) is reported, and the
// walk goes on without it.
func TestGitignoreUnreadable(t *testing.T) {
	dir := tree(t, "app.py=", "sub/x.py=")
	if err := syscall.Mkfifo(filepath.Join(dir, "sub", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, errs := Walk([]string{dir}, Options{})
	if len(files) != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), ".gitignore") {
		t.Errorf("files %v, errors %v", files, errs)
	}
}
