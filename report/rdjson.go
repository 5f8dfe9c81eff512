package report

import (
	"io"

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
		Column int `json:"column"`
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
// message; suggestions are the edits of the fix --fix would apply (with
// --unsafe-fixes, the unsafe one), the edits --diff shows, when they all
// change the finding's own file: reviewdog suggests changes to the lines a
// comment is on, so a fix that creates or edits another file is left out
// (the full format and --diff show it). Columns count bytes, as
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
			rd.Suggestions = rdSuggestions(res, d, f, lines)
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

// rdSuggestions returns f's edits as suggestions, or nil when one of them
// creates a file or edits another file than d's.
func rdSuggestions(res *engine.Result, d *rules.Diagnostic, f *rules.Fix, lines map[string]*pyast.LineIndex) []RDSuggestion {
	li := lineIndex(res, d.Path, lines)
	if li == nil {
		return nil
	}
	var out []RDSuggestion
	for _, e := range f.Edits {
		if e.Create || e.Path != d.Path {
			return nil
		}
		out = append(out, RDSuggestion{Range: RDRange{Start: rdPos(li, e.Start), End: rdPos(li, e.End)}, Text: e.New})
	}
	return out
}
