// Package testfs builds small file trees for tests.
package testfs

import (
	"os"
	"path/filepath"
	"testing"
)

// Write creates files (slash path -> contents) under a new temporary folder
// and returns the folder.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, src := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Read returns a file's contents, failing the test when it cannot be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// NoTemps fails the test when a temporary file of mcplint's atomic writes
// (.NAME.mcplint-tmp-PID-RAND) is left in dir.
func NoTemps(t testing.TB, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".*mcplint-tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
