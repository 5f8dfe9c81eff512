package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safewrite"
	"github.com/mcplint/mcplint/report"
	"github.com/spf13/cobra"
)

// Exit codes of `mcplint audit`, by the worst verdict over the repositories.
const (
	auditNo      = 0 // no repository crashes on cancel
	auditYes     = 1 // at least one repository crashes on cancel
	auditUnknown = 3 // none is known to crash, but at least one is unknown
)

func init() { extraCommands = append(extraCommands, newAuditCmd) }

func newAuditCmd() *cobra.Command {
	f := &checkFlags{}
	var format, output string
	var children bool
	c := &cobra.Command{
		Use:   "audit PATH...",
		Short: "Audit one or many repositories: a report with versions, handlers, findings and a verdict",
		Long: `Audit scans each PATH as a repository of its own and writes one report: a
table across repositories (resolved mcp / fastmcp / anyio versions, handlers,
findings per rule, verdict), then each repository's findings with excerpts and
fix diffs. With --children, each subdirectory of each PATH is a repository.

Exit code by the worst verdict: 0 no repository crashes on cancel, 1 at least
one does, 3 none is known to but some are unknown (unpinned versions, files
that could not be analysed, no handler found), 2 usage or internal error.`,
		Args:          cobra.MinimumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAudit(cmd, args, f, format, output, children)
		},
	}
	fl := c.Flags()
	fl.StringVar(&format, "output-format", "markdown", "report format: markdown or json (alias --format)")
	fl.StringVarP(&output, "output", "o", "", "write the report to FILE instead of stdout (- is stdout)")
	aliasFormat(fl)
	fl.BoolVar(&children, "children", false, "audit each subdirectory of each PATH as a repository")
	fl.StringSliceVar(&f.selectCodes, "select", nil, "rules to run (codes, names or prefixes such as MCP1)")
	fl.StringSliceVar(&f.ignoreCodes, "ignore", nil, "rules not to run")
	fl.StringSliceVar(&f.extendSelect, "extend-select", nil, "rules to run in addition to the selection")
	fl.StringVar(&f.assumeMCP, "assume-mcp", "", "mcp version to assume where no dependency file says")
	fl.StringVar(&f.assumeFastMCP, "assume-fastmcp", "", "fastmcp version to assume where no dependency file says")
	fl.BoolVar(&f.showSafe, "show-safe", false, "show findings that cannot crash the project's versions as notes")
	fl.StringSliceVar(&f.handlerDecorators, "handler-decorator", nil, "extra registration decorator (qualified name) of an in-house framework")
	fl.BoolVar(&f.isolated, "isolated", false, "ignore the repositories' configuration files: defaults and flags only")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "workers: files parsed, projects and a large project's modules analysed in parallel (default: the CPU count)")
	return c
}

// auditRepos lists the repositories to audit.
func auditRepos(paths []string, children bool) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, usageError{err}
		}
		if !info.IsDir() {
			return nil, usageError{fmt.Errorf("%s is not a directory", p)}
		}
		if !children {
			out = append(out, filepath.ToSlash(p))
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var dirs []string
		for _, e := range entries {
			if e.IsDir() && e.Name()[0] != '.' {
				dirs = append(dirs, filepath.ToSlash(filepath.Join(p, e.Name())))
			}
		}
		sort.Strings(dirs)
		out = append(out, dirs...)
	}
	return out, nil
}

// auditProgress returns the function that shows, on stderr when it is a
// terminal and there is more than one repository, which repository the
// audit is at ("mcplint: audit 3/112: path"), on one line it rewrites;
// called with i == n it clears the line. Elsewhere (a log, a pipe) it
// prints nothing: a CI log needs no progress bar.
func auditProgress(stderr io.Writer, n int) func(i int, repo string) {
	if n < 2 || !isTerminal(stderr) {
		return func(int, string) {}
	}
	return func(i int, repo string) {
		if i >= n {
			fmt.Fprint(stderr, "\r\x1b[K")
			return
		}
		fmt.Fprintf(stderr, "\r\x1b[Kmcplint: audit %d/%d: %s", i+1, n, escape.Cut(repo, 80))
	}
}

func runAudit(cmd *cobra.Command, paths []string, f *checkFlags, format, output string, children bool) error {
	if format != "markdown" && format != "json" {
		return usageError{fmt.Errorf("unknown --output-format %s for audit (markdown or json)%s", escape.Quote(format), didYouMean(format, []string{"markdown", "json"}))}
	}
	if output == "-" {
		output = "" // stdout, as for check
	}
	if output != "" {
		if err := checkTarget("--output", output); err != nil {
			return err
		}
	}
	repos, err := auditRepos(paths, children)
	if err != nil {
		return err
	}
	var audited []report.Audited
	progress := auditProgress(cmd.ErrOrStderr(), len(repos))
	for i, repo := range repos {
		progress(i, repo)
		opts, err := buildOptions(cmd, []string{repo}, f)
		if err != nil {
			return err
		}
		// An audit reads repositories it does not own (clones of others'
		// code, often read-only): it writes no cache into them.
		opts.Cache = nil
		res, err := engine.Run([]string{repo}, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", repo, err)
		}
		addConfigWarnings(res, f.configRun)
		audited = append(audited, report.Audited{Path: repo, Result: res})
	}
	progress(len(repos), "")
	var w io.Writer = cmd.OutOrStdout()
	var file *safewrite.File
	if output != "" {
		if file, err = createOutput("--output", output); err != nil {
			return err
		}
		w = file
	}
	ropts := report.Options{ToolVersion: version()}
	if format == "json" {
		err = report.AuditJSON(w, audited, ropts)
	} else {
		err = report.AuditMarkdown(w, audited, ropts)
	}
	if file != nil {
		if err == nil {
			err = file.Commit()
		} else {
			file.Abort()
		}
	}
	if err != nil {
		return err
	}
	switch report.Worst(audited) {
	case report.VerdictYes:
		return exitCode{auditYes}
	case report.VerdictUnknown:
		return exitCode{auditUnknown}
	}
	return nil
}
