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
