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

// ProjectVerdict is the verdict for one project: yes when a finding is an
// error (the project's versions crash), unknown when findings depend on
// versions nothing pins, a file could not be analysed, or no handler was
// found at all, no otherwise.
func ProjectVerdict(res *engine.Result, p *engine.ProjectSummary) Verdict {
	v := VerdictNo
	if len(p.Handlers) == 0 {
		v = VerdictUnknown
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		if d.Suppression != nil || ProjectOf(res, d) != p {
			continue
		}
		v = max(v, diagnosticVerdict(d))
	}
	return v
}

// Overall is the worst verdict over the run's projects and findings.
func Overall(res *engine.Result) Verdict {
	v := VerdictNo
	if len(res.Projects) == 0 {
		v = VerdictUnknown
	}
	for _, p := range res.Projects {
		v = max(v, ProjectVerdict(res, p))
	}
	for i := range res.Diagnostics {
		if d := &res.Diagnostics[i]; d.Suppression == nil {
			v = max(v, diagnosticVerdict(d))
		}
	}
	return v
}
