package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// updateScripts rewrites the expected outputs inside the .txtar scripts
// (cmp stdout golden) from the actual output: go test ./cmd/mcplint -update
var updateScripts = flag.Bool("update", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcplint": func() {
			handleSignals(os.Stderr, os.Exit)
			os.Exit(run(os.Args[1:]))
		},
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
			// The cache's key lives in the user's cache folder.
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".user-cache"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitCode,
			"mkfifo":   cmdMkfifo,
		},
	})
}

// cmdExitCode runs "exitcode N prog args..." and fails unless prog exits
// with status N (exec only tells zero from non-zero; mcplint's 1 and 2 mean
// different things).
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}
