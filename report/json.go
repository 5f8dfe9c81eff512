package report

import (
	"io"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// JSONSchemaVersion is the version of the JSON output's schema. It changes
// only when a field is removed or changes meaning; new fields may appear in
// any release (docs/json-output.md).
const JSONSchemaVersion = 1

// JSONReport is the top-level object of --format json.
type JSONReport struct {
	SchemaVersion int              `json:"schema_version"`
	Tool          JSONTool         `json:"tool"`
	Diagnostics   []JSONDiagnostic `json:"diagnostics"`
	Projects      []JSONProject    `json:"projects"`
	Summary       JSONSummary      `json:"summary"`
}

// JSONTool names the producer.
type JSONTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// JSONPosition is a point in a file: 1-based line, 1-based column in
// characters (Unicode code points), the same column in UTF-16 code units
// (for LSP-style consumers) and the 0-based byte offset.
type JSONPosition struct {
	Line        int `json:"line"`
	Column      int `json:"column"`
	ColumnUTF16 int `json:"column_utf16"`
	Offset      int `json:"offset"`
}

// JSONDiagnostic is one finding.
type JSONDiagnostic struct {
	Code     string        `json:"code"`
	Name     string        `json:"name"`
	Severity string        `json:"severity"` // error, warning or note
	Message  string        `json:"message"`
	Path     string        `json:"path"`
	Start    JSONPosition  `json:"start"`
	End      JSONPosition  `json:"end"`
	Anchor   string        `json:"anchor"`
	Project  string        `json:"project"`
	Exposure string        `json:"exposure"` // yes, no or unknown: can the project's versions crash
	Fixable  bool          `json:"fixable"`  // --fix (or --unsafe-fixes when given) fixes it
	Related  []JSONRelated `json:"related"`
	Fixes    []JSONFix     `json:"fixes"`
	// More counts the findings of the same kind after this one that the
	// run kept as their place alone (past --max-same-findings of one rule,
	// file, message and anchor): absent when there are none.
	More *JSONMore `json:"more,omitempty"`
}

// JSONMore counts folded findings: how many, and the first and last of
// their lines.
type JSONMore struct {
	Count     int `json:"count"`
	FirstLine int `json:"first_line"`
	LastLine  int `json:"last_line"`
}

// JSONRelated is a secondary location.
type JSONRelated struct {
	Path    string       `json:"path"`
	Start   JSONPosition `json:"start"`
	End     JSONPosition `json:"end"`
	Message string       `json:"message"`
}

// JSONFix is one alternative fix; the first applicable one is what --fix
// applies.
type JSONFix struct {
	Message       string     `json:"message"`
	Applicability string     `json:"applicability"` // safe, unsafe or display-only
	Edits         []JSONEdit `json:"edits"`
}

// JSONEdit replaces [start, end) of a file with content.
type JSONEdit struct {
	Path    string       `json:"path"`
	Start   JSONPosition `json:"start"`
	End     JSONPosition `json:"end"`
	Content string       `json:"content"`
	Create  bool         `json:"create"` // the edit creates the file at path: content is all of it
}

// JSONProject is one project (a directory with dependency files).
type JSONProject struct {
	Dir      string            `json:"dir"`
	Versions map[string]string `json:"versions"` // mcp, fastmcp, anyio -> what the files say
	Handlers []JSONHandler     `json:"handlers"`
	Modules  int               `json:"modules"`
	Verdict  string            `json:"verdict"` // crashes on cancel: yes, no or unknown
	// Guard is where the respond/cancel guard that runs before the server
	// starts is installed (path "" when the project has none).
	Guard JSONGuard `json:"guard"`
	// Sources are the project's dependency files: which decided its
	// versions, and why each belongs to the project.
	Sources []JSONSource `json:"sources"`
	// Joined says what the project model joined into the project from
	// other folders (a workspace member, a compiled requirements file, a
	// nested package's code), and why.
	Joined []string `json:"joined"`
	// UnresolvedCalls counts the calls in handler reach whose callee the
	// analysis could not tell; NotFollowed those of them it could not
	// follow to the project defs they may call and that could hide a
	// crash (docs/findings.md, "Calls the analysis cannot follow").
	UnresolvedCalls int `json:"unresolved_calls"`
	NotFollowed     int `json:"not_followed"`
}

// JSONSource is one dependency file of a project (deps.VersionSource).
type JSONSource struct {
	Path    string   `json:"path"`
	Role    string   `json:"role"` // lock, constraints or manifest
	Why     string   `json:"why"`
	Decides []string `json:"decides"` // the packages whose versions it decided
}

// JSONGuard locates a project's respond/cancel guard.
type JSONGuard struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// JSONHandler is a registered request handler.
type JSONHandler struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Framework string `json:"framework"`
	Async     bool   `json:"async"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
}

// JSONSummary counts what the run reported.
type JSONSummary struct {
	Findings int `json:"findings"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	Fixable  int `json:"fixable"`
	// HiddenFixes counts findings only --unsafe-fixes would fix.
	HiddenFixes int            `json:"hidden_fixes"`
	ByCode      map[string]int `json:"by_code"`
	Suppressed  map[string]int `json:"suppressed"` // per code
	Dropped     map[string]int `json:"dropped"`    // per processor (baseline, new-from-rev)
	Files       int            `json:"files"`
	Parsed      int            `json:"parsed"`
	// Fixed and FixedFiles are set when --fix ran.
	Fixed      int    `json:"fixed"`
	FixedFiles int    `json:"fixed_files"`
	Verdict    string `json:"verdict"`
}

// JSON writes the result as one JSON object (JSONReport), indented, with a
// final newline. It lists every finding (a program reads it: nothing is
// folded but what the run kept as their place alone, counted in "more"), and writes findings and projects one by one as it converts them:
// the bytes are those of encoding BuildJSON's document with encoding/json
// (indented by two spaces, no HTML escaping), without holding it in memory.
func JSON(w io.Writer, res *engine.Result, opts Options) error {
	j := newJSONWriter(w)
	ds := Visible(res.Diagnostics)
	lines := map[string]*pyast.LineIndex{}
	verdicts := indexProjects(res).verdicts()
	s := jsonSummary(res, ds, opts)
	j.reportObject(JSONSchemaVersion, jsonTool(opts),
		func() {
			j.array(len(ds), false, func(i int) {
				jd := jsonDiagnostic(res, &ds[i], opts, lines)
				j.diagnostic(&jd)
			})
		},
		func() {
			j.array(len(res.Projects), false, func(i int) {
				p := res.Projects[i]
				jp := jsonProject(p, verdicts[p])
				j.project(&jp)
			})
		}, &s)
	return j.finish()
}

// BuildJSON returns the JSON report of res as one document (JSON streams
// the same bytes).
func BuildJSON(res *engine.Result, opts Options) *JSONReport {
	ds := Visible(res.Diagnostics)
	out := &JSONReport{
		SchemaVersion: JSONSchemaVersion,
		Tool:          jsonTool(opts),
		Diagnostics:   []JSONDiagnostic{},
		Projects:      []JSONProject{},
		Summary:       jsonSummary(res, ds, opts),
	}
	lines := map[string]*pyast.LineIndex{}
	for i := range ds {
		out.Diagnostics = append(out.Diagnostics, jsonDiagnostic(res, &ds[i], opts, lines))
	}
	verdicts := indexProjects(res).verdicts()
	for _, p := range res.Projects {
		out.Projects = append(out.Projects, jsonProject(p, verdicts[p]))
	}
	return out
}

func jsonTool(opts Options) JSONTool { return JSONTool{Name: "mcplint", Version: opts.ToolVersion} }

// jsonSummary counts ds, the visible findings of res.
func jsonSummary(res *engine.Result, ds []rules.Diagnostic, opts Options) JSONSummary {
	c := Count(ds, opts.Unsafe)
	s := JSONSummary{
		Findings: c.Total, Errors: c.Errors, Warnings: c.Warnings, Notes: c.Notes,
		Fixable: c.Fixable, HiddenFixes: c.Hidden, ByCode: c.ByCode,
		Suppressed: nonNil(res.Suppressed), Dropped: nonNil(res.Dropped),
		Files: res.Files, Parsed: res.Parsed, Verdict: Overall(res).String(),
	}
	if o := opts.Outcome; o != nil {
		s.Fixed, s.FixedFiles = o.Fixed, len(o.Files)
	}
	return s
}

// jsonProject describes p, whose verdict is v.
func jsonProject(p *engine.ProjectSummary, v Verdict) JSONProject {
	jp := JSONProject{Dir: p.Dir, Versions: map[string]string{}, Handlers: make([]JSONHandler, 0, len(p.Handlers)), Modules: p.Modules, Verdict: v.String()}
	for _, pkg := range VersionPackages {
		if s := Describe(p, pkg); s != "" {
			jp.Versions[pkg] = s
		}
	}
	if g := p.Guard; g != nil {
		jp.Guard = JSONGuard{Path: g.Path, Line: g.Line}
	}
	jp.Sources = []JSONSource{}
	for _, s := range p.VersionSources() {
		jp.Sources = append(jp.Sources, JSONSource{Path: s.Path, Role: s.Role, Why: s.Why, Decides: s.Decides})
	}
	jp.Joined = append([]string{}, p.Joined...)
	jp.UnresolvedCalls, jp.NotFollowed = len(p.Unresolved), p.NotFollowed()
	for _, h := range p.Handlers {
		jp.Handlers = append(jp.Handlers, JSONHandler{Name: h.Name, Kind: h.Kind, Framework: h.Framework.String(), Async: h.Async, Path: h.Path, Line: h.Line})
	}
	return jp
}

func nonNil(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

func jsonPos(p pyast.Position) JSONPosition {
	return JSONPosition{Line: p.Line, Column: p.Column, ColumnUTF16: p.Column16, Offset: p.Offset}
}

func jsonDiagnostic(res *engine.Result, d *rules.Diagnostic, opts Options, lines map[string]*pyast.LineIndex) JSONDiagnostic {
	ok, _ := Fixable(d, opts.Unsafe)
	jd := JSONDiagnostic{
		Code: d.Code, Name: d.Name, Severity: d.Severity.String(), Message: d.Message,
		Path: d.Path, Start: jsonPos(d.Start), End: jsonPos(d.End),
		Anchor: d.Anchor, Project: d.Project, Exposure: d.Exposure.String(), Fixable: ok,
		Related: []JSONRelated{}, Fixes: []JSONFix{},
	}
	for _, r := range d.Related {
		jd.Related = append(jd.Related, JSONRelated{Path: r.Path, Start: jsonPos(r.Start), End: jsonPos(r.End), Message: r.Message})
	}
	for _, f := range d.Fixes {
		jf := JSONFix{Message: f.Message, Applicability: f.Applicability.String(), Edits: []JSONEdit{}}
		for _, e := range f.Edits {
			je := JSONEdit{Path: e.Path, Content: e.New, Create: e.Create,
				Start: JSONPosition{Offset: e.Start}, End: JSONPosition{Offset: e.End}}
			if e.Create {
				start := JSONPosition{Line: 1, Column: 1, ColumnUTF16: 1}
				je.Start, je.End = start, start
			} else if li := lineIndex(res, e.Path, lines); li != nil {
				je.Start, je.End = jsonPos(li.Position(e.Start)), jsonPos(li.Position(e.End))
			}
			jf.Edits = append(jf.Edits, je)
		}
		jd.Fixes = append(jd.Fixes, jf)
	}
	if len(d.More) > 0 {
		var s Shown
		s.addMore(d.More)
		jd.More = &JSONMore{Count: s.More, FirstLine: s.MoreFirst, LastLine: s.MoreLast}
	}
	return jd
}
