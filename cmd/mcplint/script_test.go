package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// updateScripts rewrites the expected outputs inside the .txtar scripts
// (cmp stdout golden) from the actual output: go test ./cmd/mcplint -update
var updateScripts = flag.Bool("update", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcplint": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script: each is a
// txtar archive with the files of a small repository and the commands to run
// on it, with their expected output and exit codes.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateScripts,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
