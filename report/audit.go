package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcplint/mcplint/engine"
)

// Audited is one repository of an audit and the result of its scan.
type Audited struct {
	Path   string
	Result *engine.Result
}

// Verdict is the repository's overall verdict.
func (a Audited) Verdict() Verdict { return Overall(a.Result) }

// Worst returns the worst verdict of an audit.
func Worst(repos []Audited) Verdict {
	v := VerdictNo
	for _, r := range repos {
		v = max(v, r.Verdict())
	}
	return v
}

// AuditMarkdown writes an audit: a table across repositories (versions,
// handlers, findings per rule, verdict; a repository of several projects
// has a row per project under its own: writeAuditRows), then each
// repository's report.
func AuditMarkdown(w io.Writer, repos []Audited, opts Options) error {
	var b strings.Builder
	b.WriteString("# mcplint audit\n\n")
	counts := map[Verdict]int{}
	for _, r := range repos {
		counts[r.Verdict()]++
	}
	fmt.Fprintf(&b, "**Worst verdict: crashes on cancel: %s** · %s: %d yes, %d unknown, %d no\n\n",
		Worst(repos), plural(len(repos), "repository"), counts[VerdictYes], counts[VerdictUnknown], counts[VerdictNo])
	b.WriteString("| Repository | mcp | fastmcp | anyio | Handlers | Findings | Unresolved calls | Crashes on cancel |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range repos {
		writeAuditRows(&b, r)
	}
	b.WriteString("\n")
	for _, r := range repos {
		fmt.Fprintf(&b, "## %s\n\n", mdCode(r.Path))
		WriteMarkdownBody(&b, r.Result, opts, 3)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAuditRows writes a repository's rows of the audit table: one row
// when it holds one project; else a roll-up row (every handler and finding,
// the worst verdict) and under it one row per project with its versions,
// handlers, findings and verdict, so that a monorepo's 100 projects are 100
// rows and not one cell.
func writeAuditRows(b *strings.Builder, r Audited) {
	res := r.Result
	ds := Visible(res.Diagnostics)
	handlers := 0
	for _, p := range res.Projects {
		handlers += len(p.Handlers)
	}
	versions := func(p *engine.ProjectSummary) {
		for _, pkg := range VersionPackages {
			fmt.Fprintf(b, " %s |", cell(mdText(strings.TrimPrefix(Describe(p, pkg), pkg+" "))))
		}
	}
	if len(res.Projects) <= 1 {
		fmt.Fprintf(b, "| %s |", cell(mdCode(r.Path)))
		if len(res.Projects) == 0 {
			b.WriteString(" – | – | – |")
		} else {
			versions(res.Projects[0])
		}
		fmt.Fprintf(b, " %d | %s | %s | %s |\n", handlers, cell(allCodeCounts(res)), unresolvedCell(res.Projects...), verdictCell(r.Verdict()))
		return
	}
	fmt.Fprintf(b, "| %s (%s) | – | – | – | %d | %s | %s | %s |\n", cell(mdCode(r.Path)), plural(len(res.Projects), "project"),
		handlers, cell(allCodeCounts(res)), unresolvedCell(res.Projects...), verdictCell(r.Verdict()))
	projects := indexProjects(res)
	verdicts := projects.verdicts()
	byProject := projects.group(ds)
	for _, p := range res.Projects {
		fmt.Fprintf(b, "| ↳ %s |", cell(mdCode(p.Dir)))
		versions(p)
		fmt.Fprintf(b, " %d | %s | %s | %s |\n", len(p.Handlers), cell(codeCounts(byProject[p])), unresolvedCell(p), verdictCell(verdicts[p]))
	}
}

// unresolvedCell counts the unresolved calls in handler reach of projects,
// with those not followed that could hide a crash: "12 (3 not followed)".
func unresolvedCell(ps ...*engine.ProjectSummary) string {
	n, not := 0, 0
	for _, p := range ps {
		n += len(p.Unresolved)
		not += p.NotFollowed()
	}
	if not == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%d not followed)", n, not)
}

func allCodeCounts(res *engine.Result) string {
	c := Count(res.Diagnostics, false)
	var parts []string
	for _, code := range sortedKeys(c.ByCode) {
		parts = append(parts, fmt.Sprintf("%s ×%d", code, c.ByCode[code]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// AuditJSONReport is the JSON of `mcplint audit --format json`.
type AuditJSONReport struct {
	SchemaVersion int              `json:"schema_version"`
	Tool          JSONTool         `json:"tool"`
	Repositories  []AuditJSONRepo  `json:"repositories"`
	Summary       AuditJSONSummary `json:"summary"`
}

// AuditJSONRepo is one repository: its verdict and its full JSON report.
type AuditJSONRepo struct {
	Path    string      `json:"path"`
	Verdict string      `json:"verdict"`
	Report  *JSONReport `json:"report"`
}

// AuditJSONSummary counts verdicts.
type AuditJSONSummary struct {
	Repositories int            `json:"repositories"`
	Verdicts     map[string]int `json:"verdicts"` // yes, unknown, no -> repositories
	Worst        string         `json:"worst"`
}

// AuditJSON writes an audit as JSON: buildAuditJSON's document, with the
// bytes encoding/json would write (indented by two spaces, no HTML
// escaping).
func AuditJSON(w io.Writer, repos []Audited, opts Options) error {
	j := newJSONWriter(w)
	j.auditReport(buildAuditJSON(repos, opts))
	return j.finish()
}

func buildAuditJSON(repos []Audited, opts Options) *AuditJSONReport {
	out := &AuditJSONReport{
		SchemaVersion: JSONSchemaVersion,
		Tool:          JSONTool{Name: "mcplint", Version: opts.ToolVersion},
		Repositories:  []AuditJSONRepo{},
		Summary:       AuditJSONSummary{Repositories: len(repos), Verdicts: map[string]int{"yes": 0, "unknown": 0, "no": 0}, Worst: Worst(repos).String()},
	}
	for _, r := range repos {
		v := r.Verdict()
		out.Summary.Verdicts[v.String()]++
		out.Repositories = append(out.Repositories, AuditJSONRepo{Path: r.Path, Verdict: v.String(), Report: BuildJSON(r.Result, opts)})
	}
	return out
}

// auditReport writes an audit as encoding/json would (see jsonWriter).
func (j *jsonWriter) auditReport(a *AuditJSONReport) {
	j.open('{')
	j.intField("schema_version", a.SchemaVersion)
	j.field("tool")
	j.tool(a.Tool)
	j.field("repositories")
	j.auditRepos(a.Repositories)
	j.field("summary")
	j.open('{')
	j.intField("repositories", a.Summary.Repositories)
	j.field("verdicts")
	j.intMap(a.Summary.Verdicts)
	j.strField("worst", a.Summary.Worst)
	j.close('}')
	j.close('}')
}

func (j *jsonWriter) auditRepos(rs []AuditJSONRepo) {
	if j.null(rs == nil) {
		return
	}
	j.open('[')
	for _, r := range rs {
		j.next()
		j.open('{')
		j.strField("path", r.Path)
		j.strField("verdict", r.Verdict)
		j.field("report")
		if !j.null(r.Report == nil) {
			j.report(r.Report)
		}
		j.close('}')
	}
	j.close(']')
}
