//go:build unix

package main

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdMkfifo is "mkfifo PATH": a named pipe, which mcplint must refuse to
// read (opening one for reading blocks until a writer comes).
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo path")
	}
	if err := syscall.Mkfifo(ts.MkAbs(args[0]), 0o644); err != nil {
		ts.Fatalf("mkfifo: %v", err)
	}
}
