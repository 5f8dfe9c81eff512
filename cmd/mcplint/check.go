package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

// checkFlags are the flags of `mcplint check` (and of the root command).
type checkFlags struct {
	fix, unsafeFixes, diff      bool
	formats, outputs            []string
	selectCodes, ignoreCodes    []string
	extendSelect                []string
	exitZero, statistics, quiet bool
	noColor                     bool
	jobs                        int
	assumeMCP, assumeFastMCP    string
	showSafe, reportUnreachable bool
	config                      string
	isolated                    bool
	configRun                   *configRun // set by buildOptions
	noGitignore                 bool
	trackedOnly                 bool
	baseline, writeBaseline     string
	newFromRev, newFromPatch    string
	showSuppressed              bool
	handlerDecorators           []string
	cpuProfile, memProfile      string
	maxSame                     int
	limits                      []string
	verbose                     bool
	noCache                     bool
	cacheDir                    string
	cacheAtTop                  bool // the default cache folder is the working directory's
	stdinFilename               string
}

func (f *checkFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.BoolVar(&f.fix, "fix", false, "apply safe fixes")
	fl.BoolVar(&f.unsafeFixes, "unsafe-fixes", false, "also apply unsafe fixes (with --fix or --diff)")
	fl.BoolVar(&f.diff, "diff", false, "print the fixes as a unified diff; write nothing")
	fl.StringArrayVar(&f.formats, "output-format", nil, "output format: "+strings.Join(formatNames, ", ")+" (repeatable, pair with --output; alias --format; default $MCPLINT_OUTPUT_FORMAT, else full)")
	fl.StringArrayVarP(&f.outputs, "output", "o", nil, "write the matching --output-format to FILE instead of stdout (repeatable)")
	fl.StringSliceVar(&f.selectCodes, "select", nil, "rules to run (codes, names or prefixes such as MCP1)")
	fl.StringSliceVar(&f.ignoreCodes, "ignore", nil, "rules not to run")
	fl.StringSliceVar(&f.extendSelect, "extend-select", nil, "rules to run in addition to the selection")
	fl.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when something is reported")
	fl.BoolVar(&f.statistics, "statistics", false, "print counts per rule instead of findings")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print findings only, no summary")
	fl.IntVar(&f.maxSame, "max-same-findings", report.DefaultMaxSame, "show at most N findings with the same rule, file and message, then a count of the rest (past N of one kind the run keeps their place alone: JSON counts them in \"more\"); 0 shows all")
	fl.BoolVar(&f.noColor, "no-color", false, "never color the output (--color never)")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "workers: files parsed, projects and a large project's modules analysed in parallel (default: the CPU count)")
	fl.StringVar(&f.assumeMCP, "assume-mcp", "", "mcp version to assume where no dependency file says")
	fl.StringVar(&f.assumeFastMCP, "assume-fastmcp", "", "fastmcp version to assume where no dependency file says")
	fl.BoolVar(&f.showSafe, "show-safe", false, "show findings that cannot crash the project's versions (mcp >= 2) as notes")
	fl.BoolVar(&f.reportUnreachable, "report-unreachable", false, "also report code that no handler reaches, as notes")
	fl.StringVar(&f.config, "config", "", "configuration file (default: mcplint.toml, .mcplint.toml or [tool.mcplint] in pyproject.toml, found upward)")
	fl.BoolVar(&f.isolated, "isolated", false, "ignore every configuration file (mcplint.toml, .mcplint.toml, [tool.mcplint]): defaults and flags only")
	fl.BoolVar(&f.noGitignore, "no-gitignore", false, "do not honour .gitignore files")
	fl.BoolVar(&f.trackedOnly, "tracked-only", false, "read only the files git tracks (git ls-files): not what a CI step wrote into the work tree (default: on when GITHUB_ACTIONS or CI is true inside a git work tree)")
	fl.StringVar(&f.baseline, "baseline", "", "report only findings not recorded in this baseline file")
	fl.StringVar(&f.writeBaseline, "write-baseline", "", "record every current finding in this baseline file")
	fl.StringVar(&f.newFromRev, "new-from-rev", "", "report only findings in functions or dependency lines changed since this git revision")
	fl.StringVar(&f.newFromPatch, "new-from-patch", "", "report only findings in code changed by this unified diff")
	fl.BoolVar(&f.showSuppressed, "show-suppressed", false, "include suppressed findings in SARIF as suppressions")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "say on stderr which projects were found, what was read but skipped (setup.py values that are not literals, ...), and which Python files were not parsed and why")
	fl.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the cache (.mcplint_cache at the scan root)")
	fl.StringVar(&f.cacheDir, "cache-dir", "", "cache folder (default: $MCPLINT_CACHE_DIR, else .mcplint_cache in the scan root)")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile to FILE (for performance work)")
	_ = fl.MarkHidden("cpuprofile")
	fl.StringVar(&f.memProfile, "memprofile", "", "write a heap profile (allocations) to FILE at exit (for memory work)")
	_ = fl.MarkHidden("memprofile")
	fl.StringSliceVar(&f.handlerDecorators, "handler-decorator", nil, "extra registration decorator (qualified name) of an in-house framework")
	fl.StringArrayVar(&f.limits, "limit", nil, "set a limit for this run, NAME=VALUE (repeatable; names as in the [limits] table: parse-steps, parse-steps-per-byte, syntax-nodes, syntax-depth, parse-cpu, function-steps)")
	fl.StringVar(&f.stdinFilename, "stdin-filename", "", "read the source of this file from standard input (give - as the path): reported as this path, analysed with its project on disk")
	registerOutputFlags(fl)
}

// runCheck is `mcplint check`.
func runCheck(cmd *cobra.Command, args []string, f *checkFlags) error {
	stdinRoots, stdinName, overlay, err := stdinSource(cmd.InOrStdin(), args, f)
	if err != nil {
		return err
	}
	if stdinRoots != nil {
		args = stdinRoots
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	stop, err := startCPUProfile(cmd, f)
	if err != nil {
		return err
	}
	defer stop()
	if f.memProfile != "" {
		runtime.MemProfileRate = 64 << 10
		defer writeMemProfile(cmd.ErrOrStderr(), f.memProfile)
	}
	opts, err := buildOptions(cmd, args, f)
	if err != nil {
		return err
	}
	if stdinRoots != nil {
		applyStdin(&opts, stdinName, overlay)
	}
	if err := checkOutputFlags(cmd, f); err != nil {
		return err
	}
	if !f.quiet {
		defer printCacheNotes(cmd.ErrOrStderr(), opts.Cache)
	}
	if err := checkWriteTargets(f); err != nil {
		return err
	}
	var res *engine.Result
	var outcome *fix.Outcome
	var status error // set by writing the fixes, returned after the outputs
	if f.fix || f.diff {
		outcome, err = fix.Run(args, opts, fix.Mode{Unsafe: f.unsafeFixes})
		if err != nil {
			return err
		}
		if f.diff {
			fmt.Fprint(cmd.OutOrStdout(), fix.Diffs(outcome))
			for _, fl := range outcome.Failures {
				fmt.Fprintf(cmd.ErrOrStderr(), "mcplint: %s: fix not applied: %s\n", escape.Visible(fl.Path), escape.Visible(fl.Reason))
			}
			if len(outcome.Files) > 0 && !f.exitZero {
				return exitCode{exitFindings}
			}
			return nil
		}
		if res, status, err = writeFixes(cmd.ErrOrStderr(), outcome, args, opts, f.exitZero); err != nil {
			return err
		}
	} else {
		if res, err = engine.Run(args, opts); err != nil {
			return err
		}
	}
	if f.verbose {
		printVerbose(cmd.ErrOrStderr(), res)
	}
	if stdinRoots == nil {
		warnEmptyRoots(cmd.ErrOrStderr(), res)
	} else {
		warnStdinSkipped(cmd.ErrOrStderr(), res, stdinName)
	}
	if err := afterRun(f, res); err != nil {
		return err
	}
	addConfigWarnings(res, f.configRun)
	if err := writeOutputs(cmd, f, res, outcome); err != nil {
		return err
	}
	if status != nil {
		return status
	}
	if reported(res) && !f.exitZero {
		return exitCode{exitFindings}
	}
	return nil
}

// reported tells whether the run reports anything that sets the exit code.
func reported(res *engine.Result) bool {
	for _, d := range res.Diagnostics {
		if d.Suppression != nil || rules.IsConfigNote(&d) {
			continue
		}
		if d.Severity >= rules.SeverityWarning || d.Severity == rules.SeverityNote && d.Code == rules.FileErrorCode {
			return true
		}
	}
	return false
}

// printVerbose says which projects were found, what their dependency files
// resolve to, and what was read but skipped.
func printVerbose(w io.Writer, res *engine.Result) {
	fmt.Fprintf(w, "mcplint: %d files, %d Python files parsed\n", res.Files, res.Parsed)
	if res.Reused > 0 {
		fmt.Fprintf(w, "mcplint: cache: %d project%s reused, %d analysed (%d Python files parsed now)\n", res.Reused, plural(res.Reused), res.Analysed, res.ParsedNow)
	}
	if n := len(res.Untracked); n > 0 {
		const shown = 50
		var list []string
		for _, p := range res.Untracked[:min(n, shown)] {
			list = append(list, escape.Visible(p))
		}
		more := ""
		if n > shown {
			more = fmt.Sprintf(" and %d more", n-shown)
		}
		fmt.Fprintf(w, "mcplint: --tracked-only: %d file%s git does not track not read: %s%s\n", n, plural(n), strings.Join(list, ", "), more)
	}
	for _, p := range res.Projects {
		fmt.Fprintf(w, "mcplint: project %s: %d handlers; %s; %s; %s\n", escape.Visible(p.Dir), len(p.Handlers),
			escape.Visible(p.Describe("mcp")), escape.Visible(p.Describe("fastmcp")), escape.Visible(p.Describe("anyio")))
		for _, j := range p.Joined {
			fmt.Fprintf(w, "mcplint: project %s: joined %s\n", escape.Visible(p.Dir), escape.Visible(j))
		}
		for _, s := range p.VersionSources() {
			decides := "decides nothing tracked"
			if len(s.Decides) > 0 {
				decides = "decides " + strings.Join(s.Decides, ", ")
			}
			fmt.Fprintf(w, "mcplint: project %s: versions: %s (%s) %s: %s\n", escape.Visible(p.Dir), escape.Visible(s.Path), s.Role, decides, escape.Visible(s.Why))
		}
		if g := p.Guard; g != nil {
			fmt.Fprintf(w, "mcplint: project %s is guarded by %s:%d (respond() and cancel() return early once answered): code findings are notes\n", escape.Visible(p.Dir), escape.Visible(g.Path), g.Line)
		}
		for _, n := range p.DepNotes() {
			fmt.Fprintf(w, "mcplint: note: %s\n", escape.Visible(n))
		}
		for _, s := range p.Skipped {
			fmt.Fprintf(w, "mcplint: skipped %s: %s\n", escape.Visible(s.Path), escape.Visible(s.Why))
		}
		printUnresolved(w, p)
	}
}

// printUnresolved says how many calls in the project's handler reach the
// analysis could not resolve, and lists them (the first 100): each
// followed by name and arity to its candidates, or not followed.
func printUnresolved(w io.Writer, p *engine.ProjectSummary) {
	if len(p.Unresolved) == 0 {
		return
	}
	dir := escape.Visible(p.Dir)
	fmt.Fprintf(w, "mcplint: project %s: %d unresolved call%s in handler reach or registrations, %d not followed that could hide a crash\n",
		dir, len(p.Unresolved), plural(len(p.Unresolved)), p.NotFollowed())
	const shown = 100
	for i, u := range p.Unresolved {
		if i == shown {
			fmt.Fprintf(w, "mcplint: project %s: and %d more unresolved calls\n", dir, len(p.Unresolved)-shown)
			break
		}
		what := "not followed: no name to match project defs by"
		switch {
		case u.Registration:
			what = "a registration whose handler the analysis cannot tell: not followed"
		case u.Followed && u.Matching == 0:
			what = "no project def of its name admits its arguments"
		case u.Followed:
			what = fmt.Sprintf("followed to %d project def%s of its name and arity: %s", u.Matching, plural(u.Matching), escape.Visible(strings.Join(u.Candidates, ", ")))
		case u.Matching > 0:
			what = fmt.Sprintf("not followed: %d project defs of its name and arity (at most %d are followed)", u.Matching, handlers.MaxCandidates)
		}
		fmt.Fprintf(w, "mcplint: unresolved call %s at %s:%d: %s\n", "`"+escape.Visible(u.Callee)+"(...)`", escape.Visible(u.Path), u.Line, what)
	}
}

// startCPUProfile starts the --cpuprofile profile, if asked for; stop
// writes it.
func startCPUProfile(cmd *cobra.Command, f *checkFlags) (stop func(), err error) {
	if f.cpuProfile == "" {
		return func() {}, nil
	}
	out, err := createOutput("--cpuprofile", f.cpuProfile)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Abort()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		if err := out.Commit(); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "mcplint: --cpuprofile: %v\n", err)
		}
	}, nil
}

// writeMemProfile writes the allocation profile of the run to path
// (--memprofile); pprof's -sample_index=alloc_space shows what allocated the
// most, the usual suspect for a high peak.
func writeMemProfile(stderr io.Writer, path string) {
	out, err := createOutput("--memprofile", path)
	if err == nil {
		if err = pprof.Lookup("allocs").WriteTo(out, 0); err != nil {
			out.Abort()
		} else {
			err = out.Commit()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcplint: --memprofile: %v\n", err)
	}
}
