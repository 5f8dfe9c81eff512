package main

// --stdin-filename PATH with the path "-" (ruff's convention, for editors):
// the source of PATH comes from standard input, findings are reported as
// PATH, and PATH is analysed with its project on disk (its dependency files
// and the modules beside it, found as the pre-commit hook finds a file's
// project), reporting only the findings in PATH.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/workspace"
)

// maxStdin bounds the source read from standard input (the size the walk
// reads a file up to).
const maxStdin = 64 << 20

// stdinSource turns `--stdin-filename PATH -` into the roots to analyse and
// the overlay that holds the source; roots is nil when the run reads no
// standard input.
func stdinSource(stdin io.Reader, args []string, f *checkFlags) (roots []string, name string, overlay map[string][]byte, err error) {
	hasDash := false
	for _, a := range args {
		if a == "-" {
			hasDash = true
		}
	}
	switch {
	case f.stdinFilename == "" && hasDash:
		return nil, "", nil, usageError{errors.New("reading the source from standard input (-) needs --stdin-filename PATH: the path to report it as and to find its project from")}
	case f.stdinFilename == "":
		return nil, "", nil, nil
	case len(args) > 1 || len(args) == 1 && !hasDash:
		return nil, "", nil, usageError{errors.New("--stdin-filename reads one file from standard input: give - (or no path) instead of paths")}
	case f.fix || f.diff:
		return nil, "", nil, usageError{errors.New("--stdin-filename cannot be used with --fix or --diff: the fixer writes files, and standard input is not one")}
	}
	name = displayPath(f.stdinFilename)
	if _, ok := workspace.Classify(name); !ok {
		return nil, "", nil, usageError{fmt.Errorf("--stdin-filename %s: not a Python or dependency file name", name)}
	}
	src, err := io.ReadAll(io.LimitReader(stdin, maxStdin+1))
	if err != nil {
		return nil, "", nil, fmt.Errorf("--stdin-filename: reading standard input: %w", err)
	}
	if len(src) > maxStdin {
		return nil, "", nil, fmt.Errorf("--stdin-filename: standard input is larger than %d MB", maxStdin>>20)
	}
	root := projectRoot(name)
	if st, err := os.Stat(filepath.FromSlash(root)); err != nil || !st.IsDir() {
		root = path.Dir(name)
	}
	return []string{root}, name, map[string][]byte{name: src}, nil
}

// applyStdin sets up opts for a run on standard input.
func applyStdin(opts *engine.Options, name string, overlay map[string][]byte) {
	opts.Overlay = overlay
	opts.Processors = append(opts.Processors, onlyFiles{name})
	opts.Cache = nil // the cache keys files by what is on disk
}

// warnEmptyRoots warns, on w, about each scan root that holds no Python or
// dependency file the run read: a wrong folder or working-directory would
// otherwise pass as "All checks passed!" (the exit code is unchanged). A
// root that does not exist is already a finding (MCP000).
func warnEmptyRoots(w io.Writer, res *engine.Result) {
	for _, root := range res.Roots {
		if _, err := os.Stat(filepath.FromSlash(root)); err != nil {
			continue
		}
		r := path.Clean(filepath.ToSlash(root))
		found := false
		for _, p := range res.Paths {
			if r == "." && !strings.HasPrefix(p, "../") || p == r || strings.HasPrefix(p, r+"/") {
				found = true
				break
			}
		}
		if !found {
			why := "excluded, ignored by .gitignore, or not there"
			for _, p := range res.Untracked {
				if r == "." && !strings.HasPrefix(p, "../") || p == r || strings.HasPrefix(p, r+"/") {
					// --tracked-only (on under CI): say so, or a CI job
					// that checks files before committing them is green.
					why = "not tracked by git: --tracked-only, on under CI, reads only what git tracks; git add them, or pass --tracked-only=false"
					break
				}
			}
			fmt.Fprintf(w, "mcplint: warning: no Python or dependency file found in %s (%s): nothing was checked\n", escape.Visible(root), why)
		}
	}
}

// warnStdinSkipped warns when the file read from standard input was not
// analysed: its path is excluded by the configuration or ignored by
// .gitignore, as the walk would skip the file on disk.
func warnStdinSkipped(w io.Writer, res *engine.Result, name string) {
	if !slices.Contains(res.Paths, name) {
		fmt.Fprintf(w, "mcplint: warning: --stdin-filename %s is excluded (exclude, extend-exclude or .gitignore): nothing was checked\n", escape.Visible(name))
	}
}
