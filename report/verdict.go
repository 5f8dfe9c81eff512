package report

import (
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// VersionPackages are the packages whose versions reports show.
var VersionPackages = []string{"mcp", "fastmcp", "anyio"}

// Verdict answers "does this server crash when a client cancels a request?"
type Verdict int

const (
	VerdictNo      Verdict = iota // handlers found, no finding of a code or dependency rule
	VerdictUnknown                // findings that depend on unknown versions, unreadable files, or no handler found
	VerdictYes                    // at least one error: a crash with the project's versions
)

func (v Verdict) String() string { return [...]string{"no", "unknown", "yes"}[v] }

// ProjectOf returns the project a diagnostic belongs to: its Project, or
// the project whose directory holds its file most closely.
func ProjectOf(res *engine.Result, d *rules.Diagnostic) *engine.ProjectSummary {
	var best *engine.ProjectSummary
	for _, p := range res.Projects {
		if d.Project != "" {
			if p.Dir == d.Project {
				return p
			}
			continue
		}
		if under(d.Path, p.Dir) && (best == nil || len(p.Dir) > len(best.Dir)) {
			best = p
		}
	}
	return best
}

func under(path, dir string) bool {
	return dir == "." && !strings.HasPrefix(path, "../") && !strings.HasPrefix(path, "/") ||
		path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// diagnosticVerdict is what one visible finding says.
func diagnosticVerdict(d *rules.Diagnostic) Verdict {
	if d.Code == rules.FileErrorCode {
		if d.Anchor == rules.ConfigIgnoredAnchor && rules.IsConfigNote(d) {
			return VerdictNo // the run used the default instead: it checked everything
		}
		return VerdictUnknown
	}
	if r := rules.Lookup(d.Code); r != nil && r.Kind == rules.MetaRule {
		return VerdictNo
	}
	switch d.Severity {
	case rules.SeverityError:
		return VerdictYes
	case rules.SeverityWarning:
		return VerdictUnknown
	}
	return VerdictNo
}

// baseVerdict is a project's verdict before its findings: unknown when no
// handler was found, or when calls or registrations the analysis could not
// follow may hide a crash (ProjectSummary.NotFollowed).
func baseVerdict(p *engine.ProjectSummary) Verdict {
	if len(p.Handlers) == 0 || p.NotFollowed() > 0 {
		return VerdictUnknown
	}
	return VerdictNo
}

// projectIndex finds the projects of a run's findings (ProjectOf) by one
// map lookup when a finding names its project: a run with many findings
// and projects scanned every project for every finding, once per project.
type projectIndex struct {
	res   *engine.Result
	byDir map[string]*engine.ProjectSummary // the first project of each Dir, as ProjectOf finds it
}

func indexProjects(res *engine.Result) *projectIndex {
	x := &projectIndex{res: res, byDir: make(map[string]*engine.ProjectSummary, len(res.Projects))}
	for _, p := range res.Projects {
		if _, ok := x.byDir[p.Dir]; !ok {
			x.byDir[p.Dir] = p
		}
	}
	return x
}

// of is ProjectOf(x.res, d).
func (x *projectIndex) of(d *rules.Diagnostic) *engine.ProjectSummary {
	if d.Project != "" {
		return x.byDir[d.Project]
	}
	return ProjectOf(x.res, d)
}

// group returns the findings ds by the project each belongs to (of).
func (x *projectIndex) group(ds []rules.Diagnostic) map[*engine.ProjectSummary][]*rules.Diagnostic {
	out := map[*engine.ProjectSummary][]*rules.Diagnostic{}
	for i := range ds {
		p := x.of(&ds[i])
		out[p] = append(out[p], &ds[i])
	}
	return out
}

// verdicts returns the verdict of every project of the run, in one pass
// over its findings: yes when a finding is an error (the project's
// versions crash), unknown when findings depend on versions nothing pins, a
// file could not be analysed, or no handler was found at all, no otherwise.
func (x *projectIndex) verdicts() map[*engine.ProjectSummary]Verdict {
	vs := make(map[*engine.ProjectSummary]Verdict, len(x.res.Projects))
	for _, p := range x.res.Projects {
		vs[p] = baseVerdict(p)
	}
	for i := range x.res.Diagnostics {
		d := &x.res.Diagnostics[i]
		if d.Suppression != nil {
			continue
		}
		if p := x.of(d); p != nil {
			vs[p] = max(vs[p], diagnosticVerdict(d))
		}
	}
	return vs
}

// Overall is the worst verdict over the run's projects and findings.
func Overall(res *engine.Result) Verdict {
	v := VerdictNo
	if len(res.Projects) == 0 {
		v = VerdictUnknown
	}
	// A project's verdict is its base verdict raised by its findings, and
	// every finding counts here anyway: no finding needs its project.
	for _, p := range res.Projects {
		v = max(v, baseVerdict(p))
	}
	for i := range res.Diagnostics {
		if d := &res.Diagnostics[i]; d.Suppression == nil {
			v = max(v, diagnosticVerdict(d))
		}
	}
	return v
}
