//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplint/mcplint/internal/safewrite"
)

// A real SIGTERM during a write removes the temporary file, leaves the
// target as it was, says what was written, and ends with 128+15.
func TestSignalRemovesTemporaryFiles(t *testing.T) {
	safewrite.Reset()
	defer safewrite.Reset()
	dir := t.TempDir()
	done, target := filepath.Join(dir, "done.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := safewrite.WriteFile(done, []byte("{}"), safewrite.Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := safewrite.Create(target, safewrite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half a rep"))
	var stderr bytes.Buffer
	exited := make(chan int)
	stop := handleSignals(&stderr, func(code int) { exited <- code })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := <-exited; code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit code %d, want %d", code, 128+int(syscall.SIGTERM))
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*mcplint*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if f.Commit() == nil {
		t.Error("a write was committed after the signal")
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Errorf("target holds %q", b)
	}
	if msg := stderr.String(); !strings.Contains(msg, "interrupted (terminated) after writing "+done+"; no other file was changed") {
		t.Errorf("stderr: %q", msg)
	}
}
