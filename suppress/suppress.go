// Package suppress is the suppression engine: one processor, run before
// every renderer, that reads suppression comments in Python, requirements,
// TOML and setup.cfg files, removes (or, for SARIF, marks) the findings they
// cover, and reports the comments that gave no reason (MCP900, off by
// default) or covered nothing (MCP901, with a fix that deletes them).
//
// The comment forms:
//
//	x = await to_thread.run_sync(f)  # mcplint: ignore[MCP101] f takes 1 ms
//	# mcplint: ignore[MCP101, MCP104] reason      (alone on a line: covers the next line)
//	# mcplint: ignore-file[MCP103] reason          (anywhere, conventionally at the top)
//	x = await to_thread.run_sync(f)  # noqa: MCP101
//	mcp==1.20.0  # mcplint: ignore[MCP001] pinned by the platform   (requirements, TOML)
//
// Codes may also be written as rule names. Comments are found with each
// format's real lexing rules, so a '#' inside a string is never one.
package suppress

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Processor applies suppression comments. The zero value drops suppressed
// findings and reports unused suppressions of every rule.
type Processor struct {
	// Enabled tells whether a rule ran in this run: an unused suppression
	// is reported only for rules that ran, and MCP900 / MCP901 only when
	// enabled themselves. Nil means every rule that is on by default.
	Enabled func(code string) bool
	// Keep marks suppressed findings (Diagnostic.Suppression) instead of
	// dropping them, for SARIF's suppressions.
	Keep bool
	// ParseLimits bound the parse of a Python file whose comments the
	// engine did not keep (the run's limits: engine.Options.Limits.Parse);
	// nil means pyast.DefaultLimits.
	ParseLimits *pyast.Limits
}

// Name implements engine.Processor.
func (p *Processor) Name() string { return "suppressions" }

// Local implements engine.LocalProcessor: a finding is suppressed by the
// comments of its own file, and the findings about comments are in theirs.
func (p *Processor) Local() {}

func (p *Processor) enabled(code string) bool {
	if p.Enabled != nil {
		return p.Enabled(code)
	}
	r := rules.Lookup(code)
	return r != nil && !r.DefaultOff
}

// file is one file's directives.
type file struct {
	path  string
	src   []byte
	lines *pyast.LineIndex
	dirs  []*Directive
	// byLine holds, for each line, the directives that can cover a finding
	// starting there (a directive on that line, or an own-line directive on
	// the line above); fileDirs the file-level ones. Built once per file, so
	// matching a finding costs the directives of its line, not of the file.
	byLine   map[int][]*Directive
	fileDirs []*Directive
}

// index builds byLine and fileDirs from dirs.
func (f *file) index() {
	f.byLine = map[int][]*Directive{}
	for _, dir := range f.dirs {
		if dir.File {
			f.fileDirs = append(f.fileDirs, dir)
			continue
		}
		f.byLine[dir.Line] = append(f.byLine[dir.Line], dir)
		if dir.Own {
			f.byLine[dir.Line+1] = append(f.byLine[dir.Line+1], dir)
		}
	}
}

// Process implements engine.Processor. It filters diags in place (the
// engine keeps only what it returns) and grows the slice once for the
// findings about the comments: a file of 100,000 unused directives must not
// cost several copies of 100,000 findings.
func (p *Processor) Process(res *engine.Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	files := p.read(res, diags)
	out := diags[:0]
	var kept keptSuppressed
	for _, d := range diags {
		if len(d.More) == 0 {
			if p.apply(res, files[d.Path], &d) && !p.Keep {
				continue
			}
			out = append(out, d)
			continue
		}
		// Each finding folded into d (Diagnostic.More) by its own line;
		// those suppressed are dropped, or kept (Keep) folded by kind and
		// reason, so a suppressed repeat costs no more than a reported one.
		if d, ok := res.Refold(d, func(x *rules.Diagnostic) bool {
			if !p.apply(res, files[x.Path], x) {
				return true
			}
			if p.Keep {
				kept.add(x)
			}
			return false
		}); ok {
			out = append(out, d)
		}
	}
	out = append(out, kept.ds...)
	// Findings about the comments themselves; a directive can silence them
	// too ("# mcplint: ignore[MCP101, MCP901]"). All are found before any is
	// matched, so whether a directive is unused never depends on the order
	// of the files.
	var meta []rules.Diagnostic
	partial := map[string]bool{}
	for _, d := range diags {
		if d.Code == rules.FileErrorCode {
			partial[d.Path] = true
		}
	}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		meta = p.check(files[path], partial[path], meta)
	}
	out = slices.Grow(out, len(meta))
	for _, d := range meta {
		if p.apply(res, files[d.Path], &d) && !p.Keep {
			continue
		}
		out = append(out, d)
	}
	for path, f := range files {
		if len(f.dirs) == 0 {
			delete(files, path)
		}
	}
	return out, nil
}

// keptSuppressed gathers the suppressed findings of a folded kind that the
// run keeps (Processor.Keep): the first of each kind and suppression
// reason in full, the next as their place in its More.
type keptSuppressed struct {
	ds []rules.Diagnostic
	at map[keptKind]int
}

type keptKind struct {
	code, path, msg, anchor, reason string
}

func (k *keptSuppressed) add(d *rules.Diagnostic) {
	kind := keptKind{d.Code, d.Path, d.Message, d.Anchor, d.Suppression.Justification}
	if i, ok := k.at[kind]; ok {
		k.ds[i].More = append(k.ds[i].More, rules.PlaceOf(d))
		return
	}
	if k.at == nil {
		k.at = map[keptKind]int{}
	}
	k.at[kind] = len(k.ds)
	k.ds = append(k.ds, *d)
}

// read finds the directives of every scanned file and of every file with a
// finding. Only files that mention "mcplint" or "noqa" are lexed; Sources
// keeps only those with a finding or a directive.
func (p *Processor) read(res *engine.Result, diags []rules.Diagnostic) map[string]*file {
	seen := map[string]bool{}
	var paths []string
	for _, path := range res.Paths {
		if !seen[path] {
			seen[path] = true
			paths = append(paths, path)
		}
	}
	withDiag := map[string]bool{}
	for _, d := range diags {
		withDiag[d.Path] = true
		if !seen[d.Path] {
			seen[d.Path] = true
			paths = append(paths, d.Path)
		}
	}
	files := map[string]*file{}
	for _, path := range paths {
		if syntaxOf(path) == noComments || res.Markerless(path) {
			continue
		}
		_, had := res.Sources[path]
		src, err := res.Read(path)
		if err != nil {
			continue // the engine reports unreadable files
		}
		if !engine.MayHaveDirective(src) {
			if !had && !withDiag[path] {
				delete(res.Sources, path)
			}
			continue
		}
		f := &file{path: path, src: src, lines: pyast.NewLineIndex(src)}
		// Python files the engine parsed come with their comments; others
		// are lexed here.
		var cs []comment
		if spans, ok := res.Comments[path]; ok {
			for _, sp := range spans {
				cs = append(cs, comment{sp[0], sp[1]})
			}
		} else {
			lim := pyast.DefaultLimits
			if p.ParseLimits != nil {
				lim = *p.ParseLimits
			}
			cs = comments(path, src, lim)
			// Kept with the run's comments: the cache keeps them, so a
			// later run on the same bytes need not lex the file again.
			spans := make([][2]int, 0, len(cs))
			for _, c := range cs {
				spans = append(spans, [2]int{c.start, c.end})
			}
			if res.Comments == nil {
				res.Comments = map[string][][2]int{}
			}
			res.Comments[path] = spans
		}
		for _, c := range cs {
			for _, d := range parseDirectives(src, c) {
				d.Path = path
				d.Line = f.lines.Position(d.Start).Line
				ls := f.lines.LineStart(d.Line)
				d.Own = len(bytes.TrimLeft(src[ls:c.start], " \t\f")) == 0
				f.dirs = append(f.dirs, d)
			}
		}
		if len(f.dirs) == 0 && !had && !withDiag[path] {
			delete(res.Sources, path)
		}
		f.index()
		files[path] = f
	}
	return files
}

// apply marks every directive code that covers d as used, and reports
// whether any did (setting d.Suppression and counting it).
func (p *Processor) apply(res *engine.Result, f *file, d *rules.Diagnostic) bool {
	if f == nil {
		return false
	}
	var by *Directive
	for _, dirs := range [2][]*Directive{f.byLine[d.Start.Line], f.fileDirs} {
		for _, dir := range dirs {
			for i := range dir.Codes {
				if dir.Codes[i].Rule == d.Code {
					dir.Codes[i].used = true
					if by == nil || !by.File && dir.File {
						by = dir
					}
				}
			}
		}
	}
	if by == nil {
		blanketNote(f, d)
		return false
	}
	// A file-level directive wins the record when both match: it is the
	// broader judgement. Either way the finding is suppressed once.
	res.Suppressed[d.Code]++
	d.Suppression = &rules.Suppression{
		Location:      rules.SpanLocation(f.path, f.lines, by.Start, by.End),
		Justification: by.Reason,
	}
	return true
}

// blanketNote adds to d, when a blanket "# noqa" is on its line, a note
// that the comment does not suppress it (ruff honours a blanket noqa;
// mcplint does not, so that a comment written for another linter never
// hides a crash).
func blanketNote(f *file, d *rules.Diagnostic) {
	for _, dir := range f.byLine[d.Start.Line] {
		if dir.Blanket && dir.Line == d.Start.Line {
			d.Related = append(d.Related, rules.Related{
				Location: rules.SpanLocation(f.path, f.lines, dir.Start, dir.End),
				Message:  fmt.Sprintf("a blanket `# noqa` does not suppress mcplint findings: name the code, `# noqa: %s`, or write `# mcplint: ignore[%s] reason`", d.Code, d.Code),
			})
			return
		}
	}
}

// check reports f's directives that gave no reason (MCP900) or covered
// nothing (MCP901), appended to out. Codes of rules that did not run are not
// reported unused. In a file not fully analysed (partial: it has an MCP000
// finding, a syntax error or a function too complex to analyse) a code that
// matched nothing may have matched what the analysis could not see: it is
// not reported, and the fixes of what is reported there are advice only,
// as every fix in a file with syntax errors (ruff does the same for its
// RUF100).
func (p *Processor) check(f *file, partial bool, out []rules.Diagnostic) []rules.Diagnostic {
	for _, dir := range f.dirs {
		if p.enabled(rules.SuppressionWithoutReasonCode) && dir.Reason == "" && len(dir.Codes) > 0 {
			out = append(out, p.diag(f, dir, rules.SuppressionWithoutReason, dir.Start, dir.End,
				"suppression gives no reason: write why after the codes"))
		}
		if !p.enabled(rules.UnusedSuppressionCode) {
			continue
		}
		if len(dir.Codes) == 0 {
			if !dir.Noqa { // a noqa with only other tools' codes is theirs
				d := p.diag(f, dir, rules.UnusedSuppression, dir.Start, dir.End,
					"suppression names no rule: write the codes in brackets, as in # mcplint: ignore[MCP101] reason")
				d.Fixes = []rules.Fix{advice(p.fix(f, dir, nil), partial)}
				out = append(out, d)
			}
			continue
		}
		var unused []Code
		var keep []Code
		for _, c := range dir.Codes {
			switch {
			case c.Rule == "":
				unused = append(unused, c)
			case !c.used && p.enabled(c.Rule) && c.Rule != rules.UnusedSuppressionCode && !partial:
				unused = append(unused, c)
			default:
				keep = append(keep, c)
			}
		}
		if len(unused) == 0 {
			continue
		}
		var msgs []string
		for _, c := range unused {
			if c.Rule == "" {
				msgs = append(msgs, fmt.Sprintf("%s is not an mcplint rule", escape.Excerpt(c.Text)))
			} else {
				msgs = append(msgs, fmt.Sprintf("%s matches no finding", escape.Excerpt(c.Text)))
			}
		}
		start, end := dir.Start, dir.End
		if len(keep) > 0 || len(dir.other) > 0 {
			start, end = unused[0].Start, unused[len(unused)-1].End
		}
		d := p.diag(f, dir, rules.UnusedSuppression, start, end, "unused suppression: "+strings.Join(msgs, "; "))
		d.Fixes = []rules.Fix{advice(p.fix(f, dir, keep), partial)}
		out = append(out, d)
	}
	return out
}

// advice makes fx display-only in a file not fully analysed (check).
func advice(fx rules.Fix, partial bool) rules.Fix {
	if !partial {
		return fx
	}
	return rules.Fix{Message: fx.Message + " (not applied: the file was not fully analysed)", Applicability: rules.DisplayOnly}
}

// diag makes a finding about a directive, anchored to the directive's line.
func (p *Processor) diag(f *file, dir *Directive, r *rules.Rule, start, end int, msg string) rules.Diagnostic {
	ls := f.lines.LineStart(dir.Line)
	le := f.lines.LineStart(dir.Line + 1)
	return rules.Diagnostic{
		Code: r.Code, Name: r.Name, Message: msg,
		Location: rules.SpanLocation(f.path, f.lines, start, end),
		Severity: r.Severity, Exposure: deps.Yes,
		Anchor:      "suppression:" + strings.TrimSpace(string(f.src[dir.Start:dir.End])),
		AnchorStart: ls, AnchorEnd: le,
	}
}

// fix deletes the directive, or rewrites its code list to keep.
func (p *Processor) fix(f *file, dir *Directive, keep []Code) rules.Fix {
	if len(keep) > 0 || len(dir.other) > 0 {
		all := append(append([]Code(nil), keep...), dir.other...)
		sort.Slice(all, func(i, j int) bool { return all[i].Start < all[j].Start })
		var texts []string
		for _, c := range all {
			texts = append(texts, c.Text)
		}
		return rules.Fix{
			Message:       "Remove the unused codes from the suppression",
			Applicability: rules.Safe,
			Edits:         []rules.Edit{{Path: f.path, Start: dir.listStart, End: dir.listEnd, New: strings.Join(texts, ", ")}},
		}
	}
	start, end := dir.Start, dir.End
	src := f.src
	switch {
	case dir.Own && start == dir.commentStart && end == trimRight(src, dir.commentEnd, dir.commentStart):
		// The line holds only this directive: delete the line.
		start = f.lines.LineStart(dir.Line)
		end = f.lines.LineStart(dir.Line + 1)
		if end == len(src) && (end == 0 || src[end-1] != '\n') && start > 0 {
			// Last line without a newline: take the previous line ending.
			start--
			if start > 0 && src[start-1] == '\r' {
				start--
			}
		}
	case end < trimRight(src, dir.commentEnd, dir.commentStart):
		// Text follows in the same comment: delete up to it, keeping its '#'.
		for end < dir.commentEnd && src[end] != '#' {
			end++
		}
	default:
		// Trailing: delete the whitespace before the '#' too.
		for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
			start--
		}
	}
	return rules.Fix{
		Message:       "Remove the unused suppression comment",
		Applicability: rules.Safe,
		Edits:         []rules.Edit{{Path: f.path, Start: start, End: end}},
	}
}

func trimRight(src []byte, end, floor int) int {
	for end > floor && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	return end
}
