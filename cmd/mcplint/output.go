package main

// Output flags follow golangci-lint's model of several outputs in one run:
//
//	--output-format F  repeatable (alias --format; default $MCPLINT_OUTPUT_FORMAT,
//	                   else full): full (alias text), concise, json, json-lines,
//	                   sarif, github, gitlab, junit, rdjson, markdown
//	--output FILE      repeatable: the k-th --output receives the k-th format;
//	                   a format with no --output at its position, or with
//	                   --output -, writes to stdout
//
// So `mcplint --format sarif --output mcplint.sarif --format github` writes
// SARIF to a file and annotations to stdout. At most one format may go to
// stdout, no file may receive two formats, and there may not be more
// --output than --format (except one --output with no --format: text to the
// file). Mistakes are usage errors (exit 2) reported before any analysis.
// --sarif-category sets the SARIF run's automationDetails.id.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safewrite"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/sarif"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// formatNames are the values --output-format accepts (ruff's names, and
// "text" for full: the name mcplint used first).
var formatNames = []string{"full", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit", "rdjson", "markdown"}

// formatAliases are other names of formats.
var formatAliases = map[string]string{"text": "full"}

// outputFormatEnv names the default output format when no flag gives one.
const outputFormatEnv = "MCPLINT_OUTPUT_FORMAT"

// outputSpec is one rendering: a format and where it goes ("" = stdout).
type outputSpec struct {
	format string
	path   string
}

// registerOutputFlags adds the output flags that check.go does not declare.
func registerOutputFlags(fl *pflag.FlagSet) {
	fl.String("sarif-category", "mcplint", "code scanning category of the SARIF run (automationDetails.id)")
	fl.String("color", "auto", "color the full and concise outputs: auto (on a terminal), always or never (FORCE_COLOR, CLICOLOR_FORCE and NO_COLOR apply to auto)")
	aliasFormat(fl)
}

// aliasFormat makes --format, the name mcplint used first, an alias of
// --output-format (ruff's name) in fl.
func aliasFormat(fl *pflag.FlagSet) {
	prev := fl.GetNormalizeFunc()
	fl.SetNormalizeFunc(func(fs *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "format" {
			return "output-format"
		}
		return prev(fs, name)
	})
}

// outputSpecs pairs --format and --output (see the top of this file).
func outputSpecs(formats, outputs []string) ([]outputSpec, error) {
	flag := "--output-format"
	if len(formats) == 0 {
		formats = []string{"full"}
		if env := strings.TrimSpace(os.Getenv(outputFormatEnv)); env != "" {
			formats, flag = []string{env}, outputFormatEnv
		}
	}
	if len(outputs) > len(formats) {
		return nil, fmt.Errorf("%d --output for %d --output-format: give one --output-format before each --output", len(outputs), len(formats))
	}
	var specs []outputSpec
	stdout := ""
	files := map[string]string{}
	for i, f := range formats {
		f = strings.ToLower(strings.TrimSpace(f))
		if alias, ok := formatAliases[f]; ok {
			f = alias
		}
		if !slices.Contains(formatNames, f) {
			return nil, fmt.Errorf("unknown %s %s (one of %s)%s", flag, escape.Quote(f), strings.Join(formatNames, ", "), didYouMean(f, formatNames))
		}
		s := outputSpec{format: f}
		if i < len(outputs) && outputs[i] != "-" {
			s.path = outputs[i]
		}
		if s.path == "" {
			if stdout != "" {
				return nil, fmt.Errorf("--output-format %s and --output-format %s both write to stdout: give --output FILE after one of them", stdout, f)
			}
			stdout = f
		} else {
			key := filepath.Clean(s.path)
			if prev, ok := files[key]; ok {
				return nil, fmt.Errorf("--output-format %s and --output-format %s both write to %s", prev, f, s.path)
			}
			files[key] = f
		}
		specs = append(specs, s)
	}
	return specs, nil
}

// checkOutputFlags validates the output flags before the analysis runs.
func checkOutputFlags(cmd *cobra.Command, f *checkFlags) error {
	if fl := cmd.Flags().Lookup("color"); fl != nil {
		if v := fl.Value.String(); v != "auto" && v != "always" && v != "never" {
			return usageError{fmt.Errorf("--color %s: want auto, always or never", escape.Quote(v))}
		}
	}
	if _, err := outputSpecs(f.formats, f.outputs); err != nil {
		return usageError{err}
	}
	if f.maxSame < 0 {
		return usageError{fmt.Errorf("--max-same-findings %d: give a count, or 0 to show all", f.maxSame)}
	}
	return nil
}

// writeOutputs renders the result in every requested format.
func writeOutputs(cmd *cobra.Command, f *checkFlags, res *engine.Result, outcome *fix.Outcome) error {
	specs, err := outputSpecs(f.formats, f.outputs)
	if err != nil {
		return usageError{err}
	}
	root := repoRoot()
	category := "mcplint"
	if fl := cmd.Flags().Lookup("sarif-category"); fl != nil {
		category = fl.Value.String()
	}
	for _, s := range specs {
		var w io.Writer = cmd.OutOrStdout()
		var file *safewrite.File
		if s.path != "" {
			if file, err = createOutput("--output", s.path); err != nil {
				return err
			}
			w = file
		}
		opts := report.Options{
			Color:       s.path == "" && useColor(cmd, cmd.OutOrStdout(), f.noColor),
			Unsafe:      f.unsafeFixes,
			Statistics:  f.statistics,
			Quiet:       f.quiet,
			MaxSame:     f.maxSame,
			Outcome:     outcome,
			ToolVersion: version(),
			FixWith:     fixWith(),
		}
		if root != "" {
			opts.RepoPath = report.RepoRelative(root)
		}
		switch s.format {
		case "sarif":
			var warnings []string
			warnings, err = sarif.Write(w, res, sarif.Options{ToolVersion: version(), Category: category, RepoRoot: root, Unsafe: f.unsafeFixes, MaxSame: f.maxSame})
			for _, msg := range warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "mcplint: warning: %s\n", escape.Visible(msg))
			}
		default:
			err = report.Formats[s.format](w, res, opts)
		}
		if file != nil {
			if err == nil {
				err = file.Commit()
			} else {
				file.Abort()
			}
		}
		if err != nil {
			return fmt.Errorf("write %s output: %w", s.format, err)
		}
	}
	return nil
}

// fixWith is what the summary says applies the fixes: inside pre-commit
// (which sets PRE_COMMIT=1 for its hooks) a user does not type --fix but
// enables the fix hook (.pre-commit-hooks.yaml: mcplint-fix, or
// mcplint-fix-go for the hooks built with Go).
func fixWith() string {
	if os.Getenv("PRE_COMMIT") == "1" {
		return "the `mcplint-fix` pre-commit hook (`mcplint-fix-go` beside `mcplint-go`)"
	}
	return ""
}

// createOutput starts writing an output file through safewrite: the file
// appears whole or not at all, as a new file; a symlink or anything but a
// regular file at the path is refused (safewrite.Options.Output: the path
// may be one the scanned repository planted).
func createOutput(flag, path string) (*safewrite.File, error) {
	file, err := safewrite.Create(path, safewrite.Options{Output: true})
	var refused *safewrite.RefusedError
	if errors.As(err, &refused) {
		return nil, fmt.Errorf("%s %s: not written: %s", flag, path, refusedHint(flag, refused))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return file, nil
}

// repoRoot is the directory SARIF URIs and annotation paths are relative
// to: $GITHUB_WORKSPACE in GitHub Actions, else the enclosing git
// repository, else none (paths as reported).
func repoRoot() string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" {
		if abs, err := filepath.Abs(ws); err == nil {
			return abs
		}
	}
	return report.FindRepoRoot(".")
}

// useColor tells whether the full or concise output to w gets ANSI colors:
// --color always or never decides (--no-color is never); with auto (the
// default), a non-empty NO_COLOR (no-color.org) says no, then a non-empty
// FORCE_COLOR or CLICOLOR_FORCE other than "0" says yes (CI logs that show
// colors set them), else only a terminal gets colors.
func useColor(cmd *cobra.Command, w io.Writer, noColor bool) bool {
	mode := "auto"
	if fl := cmd.Flags().Lookup("color"); fl != nil {
		mode = fl.Value.String()
	}
	switch {
	case noColor || mode == "never":
		return false
	case mode == "always":
		return true
	case os.Getenv("NO_COLOR") != "":
		return false
	}
	for _, env := range []string{"FORCE_COLOR", "CLICOLOR_FORCE"} {
		if v := os.Getenv(env); v != "" && v != "0" {
			return true
		}
	}
	return isTerminal(w)
}

// isTerminal tells whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
