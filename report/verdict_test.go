package report

import (
	"testing"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// projectVerdictScan is a project's verdict as it was computed before the
// index: every finding, its project found by ProjectOf's scan.
func projectVerdictScan(res *engine.Result, p *engine.ProjectSummary) Verdict {
	v := baseVerdict(p)
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if d.Suppression == nil && ProjectOf(res, d) == p {
			v = max(v, diagnosticVerdict(d))
		}
	}
	return v
}

// The index finds the project ProjectOf finds for every finding, and the
// verdicts it computes in one pass are those of the scan: findings naming
// their project, naming none (the closest folder decides), naming one the
// run does not have, projects sharing a Dir (the first wins), suppressed
// findings, a project with no handler.
func TestProjectIndex(t *testing.T) {
	proj := func(dir string, handlers int) *engine.ProjectSummary {
		return (&engine.ProjectSummary{Dir: dir, Handlers: make([]engine.HandlerSummary, handlers)}).WithDeps(&deps.Project{Dir: dir})
	}
	a, a2, b, sub, empty := proj("a", 1), proj("a", 1), proj("b", 2), proj("b/sub", 1), proj("c", 0)
	d := func(project, path string, sev rules.Severity, suppressed bool) rules.Diagnostic {
		x := rules.Diagnostic{Code: "MCP101", Severity: sev, Project: project, Location: rules.Location{Path: path}}
		if suppressed {
			x.Suppression = &rules.Suppression{}
		}
		return x
	}
	res := &engine.Result{Projects: []*engine.ProjectSummary{a, a2, b, sub, empty}, Diagnostics: []rules.Diagnostic{
		d("a", "a/x.py", rules.SeverityWarning, false),
		d("", "b/sub/y.py", rules.SeverityError, false),
		d("", "b/z.py", rules.SeverityWarning, false),
		d("b", "b/z.py", rules.SeverityError, true),
		d("nowhere", "a/x.py", rules.SeverityError, false),
		d("", "../out.py", rules.SeverityError, false),
	}}
	x := indexProjects(res)
	for i := range res.Diagnostics {
		if got, want := x.of(&res.Diagnostics[i]), ProjectOf(res, &res.Diagnostics[i]); got != want {
			t.Errorf("finding %d: project %v, ProjectOf says %v", i, got, want)
		}
	}
	vs := x.verdicts()
	want := map[*engine.ProjectSummary]Verdict{a: VerdictUnknown, a2: VerdictNo, b: VerdictUnknown, sub: VerdictYes, empty: VerdictUnknown}
	for _, p := range res.Projects {
		if vs[p] != want[p] || vs[p] != projectVerdictScan(res, p) {
			t.Errorf("%s: verdict %s, the scan %s, want %s", p.Dir, vs[p], projectVerdictScan(res, p), want[p])
		}
	}
	// The run's verdict is the worst of its projects' and findings'.
	if v := Overall(res); v != VerdictYes {
		t.Errorf("Overall: %s, want yes", v)
	}
	res.Diagnostics = nil
	if v := Overall(res); v != VerdictUnknown {
		t.Errorf("Overall without findings: %s, want unknown (a project has no handler)", v)
	}
}
