package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// GitLabIssue is one finding of a GitLab Code Quality report (a subset of
// the Code Climate issue: GitLab reads description, check_name,
// fingerprint, severity and location).
type GitLabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"` // info, minor, major, critical or blocker
	Location    GitLabLocation `json:"location"`
	// Content is the Code Climate issue's long description: the whole
	// message and the fix --fix would apply (GitLab shows the description).
	Content GitLabContent `json:"content"`
}

// GitLabLocation is a file and its line and column range.
type GitLabLocation struct {
	Path      string          `json:"path"`
	Positions GitLabPositions `json:"positions"`
}

// GitLabPositions is a range, 1-based lines and columns.
type GitLabPositions struct {
	Begin GitLabPosition `json:"begin"`
	End   GitLabPosition `json:"end"`
}

// GitLabPosition is a line and a column (characters).
type GitLabPosition struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// GitLabContent is a Code Climate content block.
type GitLabContent struct {
	Body string `json:"body"`
}

// GitLab writes a GitLab Code Quality report (artifacts:reports:codequality):
// a JSON array with one issue a finding, every finding. Paths are relative
// to the repository (opts.RepoPath), as GitLab matches them to the merge
// request's files; the description is the message's headline
// (rules.Headline) and the content holds the rest. Fingerprints do not
// depend on line numbers (rule, path, anchor and the finding's text, then a
// count among equal ones), so a finding keeps its identity when lines are
// inserted above it, and GitLab tells new findings from fixed ones.
func GitLab(w io.Writer, res *engine.Result, opts Options) error {
	ds := Visible(res.Diagnostics)
	issues := make([]GitLabIssue, 0, len(ds))
	seen := map[string]int{}
	for i := range ds {
		d := &ds[i]
		path := opts.repoPath(d.Path)
		head, _ := rules.Headline(d.Message)
		body := d.Message
		if f := firstFix(d, opts.Unsafe); f != "" {
			body += "\n\n" + f
		}
		id := findingHash(d.Code, path, d.Anchor, findingText(res, d))
		seen[id]++
		end := d.End
		if end.Line < d.Start.Line || end.Line == d.Start.Line && end.Column < d.Start.Column {
			end = d.Start
		}
		issues = append(issues, GitLabIssue{
			Description: d.Code + " " + head,
			CheckName:   d.Code + " " + d.Name,
			Fingerprint: findingHash(id, fmt.Sprint(seen[id]))[:32],
			Severity:    gitlabSeverity(d.Severity),
			Location: GitLabLocation{Path: path, Positions: GitLabPositions{
				Begin: GitLabPosition{Line: max(d.Start.Line, 1), Column: max(d.Start.Column, 1)},
				End:   GitLabPosition{Line: max(end.Line, 1), Column: max(end.Column, 1)},
			}},
			Content: GitLabContent{Body: body},
		})
	}
	return writeForeignJSON(w, issues)
}

func gitlabSeverity(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "critical"
	case rules.SeverityWarning:
		return "major"
	}
	return "info"
}

// findingText is the finding's source text, whitespace collapsed (the
// message when the file is not known).
func findingText(res *engine.Result, d *rules.Diagnostic) string {
	src := source(res, d.Path)
	if src == nil || d.Start.Offset < 0 || d.Start.Offset > d.End.Offset || d.End.Offset > len(src) {
		return d.Message
	}
	return strings.Join(strings.Fields(string(src[d.Start.Offset:d.End.Offset])), " ")
}

// findingHash hashes its parts (each ended by a NUL) to hex.
func findingHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
