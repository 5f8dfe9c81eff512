package main

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

func init() { extraCommands = append(extraCommands, newHookCmd) }

// newHookCmd is `mcplint hook [flags] FILE...`, what .pre-commit-hooks.yaml
// runs. pre-commit passes the changed files; the dependency rules and the
// handler reachability need whole projects, so the hook finds the project
// root of each file (the nearest folder above it with a dependency file,
// not above the repository top), analyses those projects, and reports only
// the findings in the files it was given. With --fix it exits 1 when it
// changed a file, as ruff's fix hook does, so the commit stops for review.
func newHookCmd() *cobra.Command {
	f := &checkFlags{}
	c := &cobra.Command{
		Use:           "hook [--fix] FILE...",
		Short:         "Run as a pre-commit hook on the files given (finds their project roots)",
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHook(cmd, args, f)
		},
	}
	f.register(c)
	return c
}

func runHook(cmd *cobra.Command, files []string, f *checkFlags) error {
	if len(files) == 0 {
		return nil
	}
	if err := checkOutputFlags(cmd, f); err != nil {
		return err
	}
	if err := checkWriteTargets(f); err != nil {
		return err
	}
	stop, err := startCPUProfile(cmd, f)
	if err != nil {
		return err
	}
	defer stop()
	roots := projectRoots(files)
	f.cacheAtTop = true
	opts, err := buildOptions(cmd, roots, f)
	if err != nil {
		return err
	}
	opts.Processors = append(opts.Processors, onlyFiles(files))
	if !f.quiet {
		defer printCacheNotes(cmd.ErrOrStderr(), opts.Cache)
	}
	var res *engine.Result
	var outcome *fix.Outcome
	var status error // set by writing the fixes, returned after the outputs
	if f.fix {
		if outcome, err = fix.Run(roots, opts, fix.Mode{Unsafe: f.unsafeFixes}); err != nil {
			return err
		}
		if res, status, err = writeFixes(cmd.ErrOrStderr(), outcome, roots, opts, f.exitZero); err != nil {
			return err
		}
	} else if res, err = engine.Run(roots, opts); err != nil {
		return err
	}
	addConfigWarnings(res, f.configRun)
	if err := writeOutputs(cmd, f, res, outcome); err != nil {
		return err
	}
	if status != nil {
		return status
	}
	if outcome != nil && len(outcome.Files) > 0 || reported(res) && !f.exitZero {
		return exitCode{exitFindings}
	}
	return nil
}

// projectRoots returns the project root of each file, without duplicates
// and without roots inside other roots: the nearest folder at or above the
// file's folder that holds a dependency file, searching no higher than the
// repository top (a folder with .git) or the working directory's top when
// the file is under it. A file with none belongs to the working directory
// (pre-commit runs at the repository top) or, outside it, to its own folder.
// A file outside the working directory and outside any repository is its
// own project: the search does not go up (a requirements.txt in / or the
// home folder, common in container images, made the hook walk all of it).
func projectRoots(files []string) []string {
	seen := map[string]bool{}
	for _, file := range files {
		seen[projectRoot(file)] = true
	}
	var roots []string
	for r := range seen {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	var out []string
	for _, r := range roots {
		nested := false
		for _, o := range out {
			if o == "." && !strings.HasPrefix(r, "../") || strings.HasPrefix(r, o+"/") {
				nested = true
			}
		}
		if !nested {
			out = append(out, r)
		}
	}
	return out
}

func projectRoot(file string) string {
	file = path.Clean(filepath.ToSlash(file))
	inside := !strings.HasPrefix(file, "../") && !path.IsAbs(file)
	if !inside && repoTop(path.Dir(file)) == "" {
		return path.Dir(file)
	}
	for dir := path.Dir(file); ; dir = path.Dir(dir) {
		if hasDependencyFile(dir) {
			return dir
		}
		if _, err := os.Stat(filepath.Join(filepath.FromSlash(dir), ".git")); err == nil {
			return dir
		}
		if topmost(dir) {
			break
		}
	}
	if inside {
		return "."
	}
	return path.Dir(file)
}

// repoTop returns the nearest folder at or above dir (a slash path) that
// holds .git, or "" when there is none; it only stats.
func repoTop(dir string) string {
	for ; ; dir = path.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(filepath.FromSlash(dir), ".git")); err == nil {
			return dir
		}
		if topmost(dir) {
			return ""
		}
	}
}

// topmost tells whether the upward search stops at dir: the working
// directory, the file system's top, or a relative path's last "..".
func topmost(dir string) bool {
	return dir == "." || dir == "/" || path.Dir(dir) == dir || strings.HasSuffix(dir, "..")
}

func hasDependencyFile(dir string) bool {
	entries, err := os.ReadDir(filepath.FromSlash(dir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && deps.IsDependencyFile(e.Name()) {
			return true
		}
	}
	return false
}

// onlyFiles is a processor that keeps the findings in the given files.
type onlyFiles []string

func (onlyFiles) Name() string { return "hook-files" }

// Local implements engine.LocalProcessor: a finding is kept by its file.
func (onlyFiles) Local() {}

func (o onlyFiles) Process(res *engine.Result, ds []rules.Diagnostic) ([]rules.Diagnostic, error) {
	keep := map[string]bool{}
	for _, f := range o {
		keep[path.Clean(filepath.ToSlash(f))] = true
	}
	out := ds[:0]
	for _, d := range ds {
		if keep[path.Clean(d.Path)] {
			out = append(out, d)
		} else {
			res.Dropped["hook-files"] += d.Findings()
		}
	}
	return out, nil
}
