//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("no named pipes here")
}
