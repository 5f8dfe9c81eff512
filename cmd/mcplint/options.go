package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcplint/mcplint/baseline"
	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/newfromrev"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/suppress"
	"github.com/mcplint/mcplint/workspace"
	"github.com/spf13/cobra"
)

// Precedence: a flag the user set beats the configuration file, which beats
// the default. The file is --config, or the nearest mcplint.toml,
// .mcplint.toml or pyproject.toml with [tool.mcplint] at or above the first
// scan root. List settings given as flags replace the file's (except the rule
// selection, which is layered: see config.Selection).

// loadConfig finds and reads the configuration for a run on paths. With no
// file, it returns an empty configuration (globs relative to the working
// directory).
func loadConfig(cmd *cobra.Command, paths []string, f *checkFlags) (*config.Config, error) {
	var cfg *config.Config
	var err error
	if f.isolated { // --isolated: no configuration file at all
		if cmd.Flags().Changed("config") || f.config != "" {
			return nil, usageError{errors.New("--config and --isolated cannot be used together")}
		}
		return &config.Config{Dir: "."}, nil
	}
	if cmd.Flags().Changed("config") || f.config != "" {
		if _, err := os.Stat(f.config); err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		cfg, err = config.Load(displayPath(f.config))
	} else {
		start := "."
		if len(paths) > 0 {
			start = paths[0]
		}
		cfg, err = config.FindAndLoad(start, displayPath) // one read and parse of each file
	}
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		return &config.Config{Dir: "."}, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// displayPath shows p relative to the working directory when under it.
func displayPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(p)
}

// flagLayer is the command line's rule selection.
func flagLayer(cmd *cobra.Command, f *checkFlags) config.Layer {
	items := func(flag string, vals []string) []config.Item {
		var out []config.Item
		for _, v := range vals {
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, config.Item{Value: s, Where: "--" + flag})
				}
			}
		}
		return out
	}
	return config.Layer{
		Select:       items("select", f.selectCodes),
		SelectSet:    cmd.Flags().Changed("select"),
		ExtendSelect: items("extend-select", f.extendSelect),
		Ignore:       items("ignore", f.ignoreCodes),
	}
}

// selection computes which rules run, and why, from the configuration and
// the flags.
func selection(cmd *cobra.Command, cfg *config.Config, f *checkFlags) (map[string]config.Decision, error) {
	sel, err := config.Selection(cfg.Layer(), flagLayer(cmd, f))
	if err != nil {
		return nil, usageError{err}
	}
	return sel, nil
}

// baselines remembers the baseline processor of each run, for afterRun's
// stale-entry message.
var baselines sync.Map // *checkFlags -> *baseline.Filter

// buildOptions turns flags and the configuration file into engine options:
// the rule selection, assumed versions, walk filters and the result
// processors (suppressions, per-file ignores, baseline, new-from-rev).
func buildOptions(cmd *cobra.Command, paths []string, f *checkFlags) (engine.Options, error) {
	changed := cmd.Flags().Changed
	opts := engine.Options{
		Jobs:              f.jobs,
		AssumeMCP:         f.assumeMCP,
		AssumeFastMCP:     f.assumeFastMCP,
		ShowSafe:          f.showSafe,
		ReportUnreachable: f.reportUnreachable,
		HandlerDecorators: f.handlerDecorators,
		Cache:             openCache(paths, f),
		MaxSame:           f.maxSame, // findings past the display limit are kept as their place alone
	}
	cfg, err := loadConfig(cmd, paths, f)
	if err != nil {
		return opts, err
	}
	if !changed("assume-mcp") && cfg.AssumeMCP != nil {
		opts.AssumeMCP = cfg.AssumeMCP.Value
	}
	if !changed("assume-fastmcp") && cfg.AssumeFastMCP != nil {
		opts.AssumeFastMCP = cfg.AssumeFastMCP.Value
	}
	if !changed("report-unreachable") && cfg.ReportUnreachable != nil {
		opts.ReportUnreachable = *cfg.ReportUnreachable
	}
	if !changed("handler-decorator") && cfg.HandlerDecorators != nil {
		opts.HandlerDecorators = values(cfg.HandlerDecorators)
	}
	if !changed("unsafe-fixes") && cfg.UnsafeFixes != nil {
		f.unsafeFixes = *cfg.UnsafeFixes
	}
	opts.Walk.NoGitignore = f.noGitignore
	if !changed("no-gitignore") && cfg.RespectGitignore != nil {
		opts.Walk.NoGitignore = !*cfg.RespectGitignore
	}
	if opts.Walk.Tracked, err = trackedFiles(cmd, paths, f); err != nil {
		return opts, err
	}
	lim, err := buildLimits(cfg, f.limits)
	if err != nil {
		return opts, err
	}
	opts.Limits = &lim
	if globs := config.NewGlobs(cfg.Dir, append(values(cfg.Exclude), values(cfg.ExtendExclude)...)); !globs.Empty() {
		opts.Walk.Exclude = func(p string, isDir bool) bool { return globs.Match(p) }
	}

	sel, err := selection(cmd, cfg, f)
	if err != nil {
		return opts, err
	}
	warnConfig(cmd, f, cfg, sel)
	opts.Rules = []*rules.Rule{}
	for _, r := range rules.All() {
		if sel[r.Code].On {
			opts.Rules = append(opts.Rules, r)
		}
	}

	// Suppressions first (so that a comment matching a finding that a later
	// stage drops still counts as used), then per-file ignores, then the
	// adoption filters.
	opts.Processors = append(opts.Processors, &suppress.Processor{
		Enabled:     func(code string) bool { return sel[code].On },
		Keep:        f.showSuppressed,
		ParseLimits: &lim.Parse,
	})
	if len(cfg.PerFileIgnores) > 0 {
		opts.Processors = append(opts.Processors, suppress.NewPerFileIgnores(cfg.Dir, cfg.PerFileIgnores))
	}
	if f.baseline != "" && f.writeBaseline == "" {
		bf, err := baseline.NewFilter(f.baseline)
		if err != nil {
			return opts, err
		}
		baselines.Store(f, bf)
		opts.Processors = append(opts.Processors, bf)
	}
	if f.newFromRev != "" && f.newFromPatch != "" {
		return opts, usageError{errors.New("--new-from-rev and --new-from-patch cannot be used together")}
	}
	if f.newFromRev != "" {
		changes, err := newfromrev.FromRev(repoDir(paths), f.newFromRev)
		if err != nil {
			return opts, err
		}
		opts.Processors = append(opts.Processors, newfromrev.NewFilter("new-from-rev", changes))
	}
	if f.newFromPatch != "" {
		changes, err := readPatch(f.newFromPatch, repoDir(paths))
		if err != nil {
			return opts, err
		}
		opts.Processors = append(opts.Processors, newfromrev.NewFilter("new-from-patch", changes))
	}
	return opts, nil
}

// trackedFiles is what --tracked-only reads: nil (every file) when it is
// off. It is on by default in CI (GITHUB_ACTIONS or CI is "true") when the
// first root is inside a git work tree: there a step before mcplint may have
// written credentials into the work tree (gha-creds-*.json, .netrc, .env),
// and a pull request decides which of them a symlink or an include names.
// When git cannot answer, an explicit --tracked-only is an error; the CI
// default says so on stderr and reads every file.
func trackedFiles(cmd *cobra.Command, paths []string, f *checkFlags) (*workspace.Tracked, error) {
	on, explicit := f.trackedOnly, cmd.Flags().Changed("tracked-only")
	if !explicit {
		on = inCI() && workspace.InWorkTree(repoDir(paths))
	}
	if !on {
		return nil, nil
	}
	t, err := workspace.GitTracked(paths)
	if err == nil {
		return t, nil
	}
	if explicit {
		return nil, fmt.Errorf("--tracked-only: %w (--tracked-only=false reads every file)", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "mcplint: warning: %s; reading every file, untracked ones too (--tracked-only is on by default in CI)\n", escape.Visible(err.Error()))
	return nil, nil
}

// inCI tells whether the run is a CI job's: GitHub Actions sets
// GITHUB_ACTIONS=true, most other CI systems CI=true.
func inCI() bool {
	return os.Getenv("GITHUB_ACTIONS") == "true" || strings.EqualFold(os.Getenv("CI"), "true")
}

// buildLimits applies the configuration's limits table, then the --limit
// flags, to the defaults.
func buildLimits(cfg *config.Config, flags []string) (engine.Limits, error) {
	lim := engine.DefaultLimits
	set := func(name string, v float64) {
		switch name {
		case "parse-steps":
			lim.Parse.Steps = int64(v)
		case "parse-steps-per-byte":
			lim.Parse.StepsPerByte = v
		case "syntax-nodes":
			lim.Parse.Nodes = int(v)
		case "syntax-depth":
			lim.Parse.Depth = int(v)
		case "parse-cpu":
			lim.Parse.CPU = time.Duration(v)
		case "function-steps":
			lim.FunctionSteps = int64(v)
		}
	}
	for name, l := range cfg.Limits {
		set(name, l.Value)
	}
	for _, s := range flags {
		name, text, ok := strings.Cut(s, "=")
		if !ok {
			return lim, usageError{fmt.Errorf("--limit %s: want NAME=VALUE, such as --limit parse-steps=5000000", escape.Quote(s))}
		}
		name = strings.TrimSpace(name)
		v, err := config.ParseLimit(name, text)
		if err != nil {
			return lim, usageError{fmt.Errorf("--limit: %w", err)}
		}
		set(name, v)
	}
	return lim, nil
}

func values(items []config.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Value)
	}
	return out
}

// repoDir is the folder git runs in: the first scan root's (its folder when
// it is a file).
func repoDir(paths []string) string {
	if len(paths) == 0 {
		return "."
	}
	if st, err := os.Stat(paths[0]); err == nil && !st.IsDir() {
		return filepath.Dir(paths[0])
	}
	return paths[0]
}

// readPatch reads a unified diff from a file ("-" for standard input).
// Its paths are relative to the repository's top when dir is in one (as
// git diff writes them), else to the working directory.
func readPatch(name, dir string) (*newfromrev.Changes, error) {
	r := os.Stdin
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("--new-from-patch: %w", err)
		}
		defer file.Close()
		r = file
	}
	base, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output(); err == nil {
		base = strings.TrimSpace(string(out))
	}
	c, err := newfromrev.ParsePatch(r, base)
	if err != nil {
		return nil, fmt.Errorf("--new-from-patch %s: %w", name, err)
	}
	return c, nil
}

// afterRun runs the steps that follow the analysis: writing a baseline
// (which ends the run with exit 0: the findings are now recorded), and
// saying how many baseline entries no longer match.
func afterRun(f *checkFlags, res *engine.Result) error {
	if f.writeBaseline != "" {
		n, err := baseline.Write(f.writeBaseline, res)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "mcplint: recorded %d finding%s in %s\n", n, plural(n), f.writeBaseline)
		return exitCode{exitClean}
	}
	if v, ok := baselines.LoadAndDelete(f); ok {
		bf := v.(*baseline.Filter)
		if bf.Stale > 0 && !f.quiet {
			fmt.Fprintf(os.Stderr, "mcplint: %d entr%s of %s no longer match%s a finding: refresh it with --write-baseline %s\n",
				bf.Stale, map[bool]string{true: "y", false: "ies"}[bf.Stale == 1], f.baseline,
				map[bool]string{true: "es", false: ""}[bf.Stale == 1], f.baseline)
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
