package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Reviewdog Diagnostic Format (rdjson) types: a DiagnosticResult.
type (
	RDResult struct {
		Source      RDSource       `json:"source"`
		Severity    string         `json:"severity,omitempty"`
		Diagnostics []RDDiagnostic `json:"diagnostics"`
	}
	RDSource struct {
		Name string `json:"name"`
		URL  string `json:"url,omitempty"`
	}
	RDDiagnostic struct {
		Message        string         `json:"message"`
		Location       RDLocation     `json:"location"`
		Severity       string         `json:"severity"` // ERROR, WARNING or INFO
		Source         RDSource       `json:"source"`
		Code           RDCode         `json:"code"`
		Suggestions    []RDSuggestion `json:"suggestions,omitempty"`
		OriginalOutput string         `json:"original_output,omitempty"`
	}
	RDLocation struct {
		Path  string  `json:"path"`
		Range RDRange `json:"range"`
	}
	RDRange struct {
		Start RDPosition `json:"start"`
		End   RDPosition `json:"end"`
	}
	// RDPosition is a 1-based line and a 1-based column in bytes (UTF-8),
	// as reviewdog counts them.
	RDPosition struct {
		Line   int `json:"line"`
		Column int `json:"column,omitempty"` // omitted: the whole line (a line-based suggestion)
	}
	RDCode struct {
		Value string `json:"value"`
		URL   string `json:"url,omitempty"`
	}
	// RDSuggestion replaces a range (end exclusive) with text.
	RDSuggestion struct {
		Range RDRange `json:"range"`
		Text  string  `json:"text"`
	}
)

// RDJSON writes the findings in reviewdog's Diagnostic Format (rdjson: one
// DiagnosticResult), for `reviewdog -f=rdjson`. The message is the whole
// message. A finding's fix (the one --fix would apply; with --unsafe-fixes,
// the unsafe one) is one suggestion when all its edits change the finding's
// own file: the whole lines from the first edit to the last, after the
// edits, with no columns (reviewdog's line-based form, which a GitHub
// review shows as a ```suggestion block replacing those lines; reviewdog
// matches a comment to its first suggestion only, so a fix of several edits
// is one span). A fix a suggestion cannot express (one that creates a file
// or edits another, or whose new lines end in an empty one, which
// reviewdog drops) is none, and the message ends with the fix's diff, as
// --diff shows it, in a collapsed block; so does the message of a fix whose
// span reaches past the finding's own lines (an import added at the top):
// GitHub accepts a suggestion only on lines of the pull request's diff. An
// unsafe fix's message says so. Columns of locations count bytes, as
// reviewdog's do. Every finding is listed.
func RDJSON(w io.Writer, res *engine.Result, opts Options) error {
	ds := Visible(res.Diagnostics)
	out := RDResult{Source: RDSource{Name: "mcplint"}, Diagnostics: make([]RDDiagnostic, 0, len(ds))}
	lines := map[string]*pyast.LineIndex{}
	for i := range ds {
		d := &ds[i]
		rd := RDDiagnostic{
			Message:  d.Message,
			Severity: rdSeverity(d.Severity),
			Source:   RDSource{Name: "mcplint"},
			Code:     RDCode{Value: d.Code},
			Location: RDLocation{Path: opts.repoPath(d.Path), Range: rdRange(lineIndex(res, d.Path, lines), d)},
		}
		if f := fix.Choose(d, opts.Unsafe); f != nil {
			var span RDRange
			rd.Suggestions, span = rdSuggestions(res, d, f, lines)
			rd.Message += rdFixNote(res, d, f, rd.Suggestions == nil || span.Start.Line < rd.Location.Range.Start.Line || span.End.Line > rd.Location.Range.End.Line)
		}
		out.Diagnostics = append(out.Diagnostics, rd)
	}
	return writeForeignJSON(w, out)
}

func rdSeverity(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "ERROR"
	case rules.SeverityWarning:
		return "WARNING"
	}
	return "INFO"
}

// rdRange converts d's range to reviewdog's: columns in bytes from the
// line's start (characters when the file is not known).
func rdRange(li *pyast.LineIndex, d *rules.Diagnostic) RDRange {
	if li == nil {
		return RDRange{Start: RDPosition{Line: max(d.Start.Line, 1), Column: max(d.Start.Column, 1)},
			End: RDPosition{Line: max(d.End.Line, 1), Column: max(d.End.Column, 1)}}
	}
	return RDRange{Start: rdPos(li, d.Start.Offset), End: rdPos(li, max(d.End.Offset, d.Start.Offset))}
}

// rdPos converts a byte offset of a file the run kept to a reviewdog
// position.
func rdPos(li *pyast.LineIndex, off int) RDPosition {
	p := li.Position(off)
	return RDPosition{Line: p.Line, Column: off - li.LineStart(p.Line) + 1}
}

// rdSuggestions returns f as one line-based suggestion and the lines it
// replaces, or nil when a suggestion cannot express it: an edit creates a
// file or edits another file than d's, an edit is out of range, or the new
// lines end in an empty line (reviewdog writes a suggestion's text and a
// newline, and drops empty text: a suggestion of one empty line would read
// as a deletion).
func rdSuggestions(res *engine.Result, d *rules.Diagnostic, f *rules.Fix, lines map[string]*pyast.LineIndex) ([]RDSuggestion, RDRange) {
	src := source(res, d.Path)
	li := lineIndex(res, d.Path, lines)
	if li == nil || len(f.Edits) == 0 {
		return nil, RDRange{}
	}
	start, end := len(src), 0
	for _, e := range f.Edits {
		if e.Create || e.Path != d.Path || e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, RDRange{}
		}
		s, e := lineSpan(src, li, e)
		start, end = min(start, s), max(end, e)
	}
	shifted := make([]rules.Edit, len(f.Edits))
	for i, e := range f.Edits {
		e.Start -= start
		e.End -= start
		shifted[i] = e
	}
	text := string(fix.ApplyNewline(src[start:end], shifted, fix.Newline(src)))
	// Whole lines in, whole lines out: the span ends with its last line's
	// line end (or at the end of a file without one), and so must the text.
	if term := lineEnd(src[start:end]); term != "" {
		if !strings.HasSuffix(text, term) && text != "" {
			return nil, RDRange{}
		}
		text = strings.TrimSuffix(text, term)
	}
	if lineEnd([]byte(text)) != "" || (text == "" && end == start) {
		return nil, RDRange{}
	}
	first := li.Position(start).Line
	last := li.Position(max(end-1, start)).Line
	r := RDRange{Start: RDPosition{Line: first}, End: RDPosition{Line: last}}
	return []RDSuggestion{{Range: r, Text: text}}, r
}

// lineSpan returns the whole lines an edit touches, from the start of the
// first to after the newline of the last. A non-empty edit that ends at a
// line start does not touch that line; an insertion of whole lines covers
// the line before it (the statement it follows, so that the new lines do
// not end with the empty line that often comes next), or the first line.
func lineSpan(src []byte, li *pyast.LineIndex, e rules.Edit) (start, end int) {
	atLineStart := func(off int) bool { return li.LineStart(li.Position(off).Line) == off }
	if e.Start == e.End && e.Start > 0 && atLineStart(e.Start) && lineEnd([]byte(e.New)) != "" {
		return li.LineStart(li.Position(e.Start - 1).Line), e.Start
	}
	start = li.LineStart(li.Position(e.Start).Line)
	if e.End > e.Start && atLineStart(e.End) {
		return start, e.End
	}
	p := li.Position(e.End)
	if p.Line >= li.Lines() {
		return start, len(src)
	}
	return start, li.LineStart(p.Line + 1)
}

// lineEnd returns the line end b ends with: "\r\n", "\n", "\r" or "".
func lineEnd(b []byte) string {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n")):
		return "\r\n"
	case bytes.HasSuffix(b, []byte("\n")):
		return "\n"
	case bytes.HasSuffix(b, []byte("\r")):
		return "\r"
	}
	return ""
}

// rdFixNote is what the message of a finding with fix f gets: that the fix
// is unsafe, and, when withDiff, the fix's diff (its files, as --diff shows
// them) in a collapsed block, for the review comment of a fix no
// suggestion shows whole.
func rdFixNote(res *engine.Result, d *rules.Diagnostic, f *rules.Fix, withDiff bool) string {
	var b strings.Builder
	if f.Applicability != rules.Safe {
		fmt.Fprintf(&b, "\n\nThe fix is %s (applied with --unsafe-fixes): %s", f.Applicability, strings.TrimSpace(f.Message))
	}
	if withDiff {
		diff := visibleLines(FixDiff(res, f))
		fence := mdFence(diff)
		fmt.Fprintf(&b, "\n\n<details><summary>Fix (%s): %s</summary>\n\n%sdiff\n%s%s\n\n</details>", f.Applicability, mdHTML(f.Message), fence, strings.TrimSuffix(diff, "\n"), fence)
	}
	return b.String()
}
