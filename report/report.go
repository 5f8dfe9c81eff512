// Package report renders an engine.Result for people and programs: text
// (ruff's full format), json (a documented, stable schema: docs/json-output.md),
// github (workflow commands for annotations) and markdown (a report for an
// audit or $GITHUB_STEP_SUMMARY). SARIF lives in package sarif.
//
// Renderers never analyse: they read the diagnostics, the project summaries
// and the file contents the engine kept. Every renderer skips suppressed
// diagnostics (Suppression != nil); only SARIF shows them.
package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// Options control rendering.
type Options struct {
	// Color turns on ANSI colors in the text output.
	Color bool
	// Unsafe is --unsafe-fixes: unsafe fixes count as fixable and the text
	// output shows no hint about hidden fixes.
	Unsafe bool
	// Statistics prints counts per rule instead of findings (text).
	Statistics bool
	// Quiet prints findings only: no summary (text).
	Quiet bool
	// Outcome is what --fix did, when it ran; the text summary reports it.
	Outcome *fix.Outcome
	// ToolVersion is mcplint's version (json).
	ToolVersion string
	// MaxSame is how many findings with the same rule, file and message the
	// text, github and markdown outputs show; the rest are counted in a note
	// (Fold). 0 shows all; the command line's default is DefaultMaxSame.
	// Identical findings (the same range too) are always shown once.
	MaxSame int
	// RepoPath maps a path as reported (relative to the working directory)
	// to the path GitHub knows (relative to the repository root), for the
	// github format; nil keeps paths as they are. See RepoRelative.
	RepoPath func(path string) string
	// FixWith names what applies the fixes in the summary's "fixable with
	// ..." (the full and concise formats); "" is "the `--fix` option". Inside
	// pre-commit the command line names the fix hook instead.
	FixWith string
}

// fixWith is o.FixWith or its default.
func (o Options) fixWith() string {
	if o.FixWith == "" {
		return "the `--fix` option"
	}
	return o.FixWith
}

// repoPath applies o.RepoPath.
func (o Options) repoPath(p string) string {
	if o.RepoPath == nil {
		return p
	}
	return o.RepoPath(p)
}

// RepoRelative returns a RepoPath function for the repository at root (an
// absolute directory): paths inside it become slash paths relative to it;
// others are returned as they are.
func RepoRelative(root string) func(string) string {
	return func(p string) string {
		abs, err := filepath.Abs(filepath.FromSlash(p))
		if err != nil {
			return p
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return p
		}
		return filepath.ToSlash(rel)
	}
}

// FindRepoRoot returns the nearest directory at or above dir that holds a
// .git entry, or "" when there is none (workspace.RepoTop).
func FindRepoRoot(dir string) string { return workspace.RepoTop(dir) }

// Format is one renderer.
type Format func(w io.Writer, res *engine.Result, opts Options) error

// Formats are the renderers of this package by --format name.
var Formats = map[string]Format{
	"full":       Text,
	"concise":    Concise,
	"json":       JSON,
	"json-lines": JSONLines,
	"github":     GitHub,
	"gitlab":     GitLab,
	"junit":      JUnit,
	"rdjson":     RDJSON,
	"markdown":   Markdown,
}

// Visible returns the diagnostics every output but SARIF shows: those no
// suppression comment matched. When every one is visible it returns ds
// itself (renderers only read it): a run with 100k findings is not copied.
func Visible(ds []rules.Diagnostic) []rules.Diagnostic {
	suppressed := false
	for i := range ds {
		if ds[i].Suppression != nil {
			suppressed = true
			break
		}
	}
	if !suppressed {
		return ds
	}
	out := make([]rules.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Suppression == nil {
			out = append(out, d)
		}
	}
	return out
}

// Fixable tells how a diagnostic can be fixed by the command line: safe is
// true when --fix fixes it (or --unsafe-fixes, with unsafe set); hidden is
// true when only --unsafe-fixes would.
func Fixable(d *rules.Diagnostic, unsafe bool) (fixable, hidden bool) {
	if fix.Choose(d, unsafe) != nil {
		return true, false
	}
	return false, !unsafe && fix.Choose(d, true) != nil
}

// Counts summarises diagnostics.
type Counts struct {
	Total, Errors, Warnings, Notes int
	Fixable, Hidden                int
	ByCode                         map[string]int
}

// Count counts visible diagnostics.
func Count(ds []rules.Diagnostic, unsafe bool) Counts {
	c := Counts{ByCode: map[string]int{}}
	for i := range ds {
		d := &ds[i]
		if d.Suppression != nil {
			continue
		}
		// The findings folded into d (Diagnostic.More) count as findings,
		// not as fixable ones: they carry no fixes.
		n := d.Findings()
		c.Total += n
		c.ByCode[d.Code] += n
		switch d.Severity {
		case rules.SeverityError:
			c.Errors += n
		case rules.SeverityWarning:
			c.Warnings += n
		default:
			c.Notes += n
		}
		ok, hidden := Fixable(d, unsafe)
		if ok {
			c.Fixable++
		}
		if hidden {
			c.Hidden++
		}
	}
	return c
}

// plural returns "1 error" / "2 errors".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// breakdown returns "2 errors, 1 warning" (non-zero parts only).
func (c Counts) breakdown() string {
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{c.Errors, "error"}, {c.Warnings, "warning"}, {c.Notes, "note"}} {
		if p.n > 0 {
			parts = append(parts, plural(p.n, p.word))
		}
	}
	return strings.Join(parts, ", ")
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lineIndex returns the line index of a file the run kept (nil if unknown).
func lineIndex(res *engine.Result, path string, cache map[string]*pyast.LineIndex) *pyast.LineIndex {
	if li, ok := cache[path]; ok {
		return li
	}
	var li *pyast.LineIndex
	if src := source(res, path); src != nil {
		li = pyast.NewLineIndex(src)
	}
	cache[path] = li
	return li
}

// source returns a file's contents as the run saw them, or nil.
func source(res *engine.Result, path string) []byte {
	if res == nil || path == "" {
		return nil
	}
	b, err := res.Read(path)
	if err != nil {
		return nil
	}
	return b
}

// Describe returns what a project's dependency files say about pkg, or ""
// when the project has no dependency information.
func Describe(p *engine.ProjectSummary, pkg string) string {
	if p == nil {
		return ""
	}
	return p.Describe(pkg)
}
