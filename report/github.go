package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/rules"
)

// GitHub's limits on annotations from workflow commands: at most 10 of each
// level (error, warning, notice) per step and 50 per job; the rest are
// dropped silently by the runner.
const (
	GitHubMaxPerLevel = 10
	GitHubMaxPerJob   = 50
)

// GitHubLimits bounds the annotations one run writes. The zero value means
// GitHub's limits.
type GitHubLimits struct {
	PerLevel int // per level (error, warning, notice) in this step
	PerJob   int // in total (what is left of the job's budget)
}

// GitHub writes findings as GitHub Actions workflow commands
// (::error file=…,line=…::message) with the toolkit's escaping, at most
// GitHub's limits (errors first, then warnings, then notes). Findings beyond
// the limits are printed as plain log lines, and a final line tells how
// many findings there are and where to see them all.
func GitHub(w io.Writer, res *engine.Result, opts Options) error {
	return GitHubWithLimits(w, res, opts, GitHubLimits{})
}

// GitHubWithLimits is GitHub with explicit limits (tests, or a job that
// already used part of its annotation budget).
func GitHubWithLimits(w io.Writer, res *engine.Result, opts Options, lim GitHubLimits) error {
	if lim.PerLevel <= 0 {
		lim.PerLevel = GitHubMaxPerLevel
	}
	if lim.PerJob <= 0 {
		lim.PerJob = GitHubMaxPerJob
	}
	all := Visible(res.Diagnostics)
	shown := Fold(all, opts.MaxSame)
	folded := 0
	for _, s := range shown {
		folded += s.More
	}
	annotate := make([]bool, len(shown))
	total := 0
	perLevel := map[string]int{}
	for _, sev := range []rules.Severity{rules.SeverityError, rules.SeverityWarning, rules.SeverityNote} {
		for i := range shown {
			lvl := githubLevel(shown[i].D.Severity)
			if lvl != githubLevel(sev) || total >= lim.PerJob || perLevel[lvl] >= lim.PerLevel {
				continue
			}
			annotate[i] = true
			perLevel[lvl]++
			total++
		}
	}
	b := bufio.NewWriter(w)
	for i, s := range shown {
		if annotate[i] {
			writeCommand(b, s, opts)
		}
	}
	rest := len(shown) - total
	if rest > 0 {
		fmt.Fprintf(b, "Findings not annotated (GitHub shows at most %d annotations per level in a step and %d in a job):\n", lim.PerLevel, lim.PerJob)
		for i, s := range shown {
			if !annotate[i] {
				d := s.D
				// A plain log line: a newline in a path or a message would
				// start a line GitHub reads as a workflow command, and so
				// would a path that starts with "::" (the runner trims
				// leading spaces before it looks), hence the "- ".
				head, why := rules.Headline(d.Message)
				fmt.Fprintf(b, "- %s:%d:%d: %s %s: %s\n", vis(d.Path), d.Start.Line, d.Start.Column, d.Severity, d.Code, vis(head))
				for _, n := range why {
					fmt.Fprintf(b, "  note: %s\n", vis(n))
				}
				for _, n := range []string{s.SameNote(), s.MoreNote(opts.MaxSame)} {
					if n != "" {
						fmt.Fprintf(b, "  note: %s\n", n)
					}
				}
			}
		}
	}
	c := Count(all, opts.Unsafe)
	switch {
	case c.Total == 0:
		b.WriteString("mcplint: no findings.\n")
	case rest == 0 && folded == 0:
		fmt.Fprintf(b, "mcplint: %s (%s), all annotated.\n", plural(c.Total, "finding"), c.breakdown())
	default:
		notShown := ""
		if folded > 0 {
			notShown = fmt.Sprintf(", %d not shown (more than %d with the same rule, file and message: --max-same-findings)", folded, opts.MaxSame)
		}
		fmt.Fprintf(b, "mcplint: %s (%s); %d annotated, %d more listed above in this log%s: see them all in the step summary, the code scanning alerts (SARIF) or with `mcplint check` locally.\n",
			plural(c.Total, "finding"), c.breakdown(), total, rest, notShown)
	}
	return b.Flush()
}

func githubLevel(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "notice"
}

func writeCommand(b sink, s Shown, opts Options) {
	d := s.D
	props := []string{"file=" + escapeProperty(vis(opts.repoPath(d.Path))), fmt.Sprintf("line=%d", d.Start.Line)}
	endLine := max(d.End.Line, d.Start.Line)
	props = append(props, fmt.Sprintf("endLine=%d", endLine))
	// GitHub ignores columns on multi-line annotations: leave them out.
	if endLine == d.Start.Line {
		props = append(props, fmt.Sprintf("col=%d", max(d.Start.Column16, 1)), fmt.Sprintf("endColumn=%d", max(d.End.Column16, d.Start.Column16, 1)))
	}
	props = append(props, "title="+escapeProperty(vis(d.Code+" "+d.Name)))
	// The headline is the first line (what the log and the annotation's
	// first line show), each note (rules.Headline) a line below it;
	// escapeData encodes the newlines as %0A, and other control characters
	// become visible, so no line of a message can be read as a command.
	head, why := rules.Headline(d.Message)
	msg := escape.VisibleKeepNewlines(head)
	for _, n := range why {
		msg += "\n" + escape.VisibleKeepNewlines(n)
	}
	for _, r := range d.Related {
		msg += fmt.Sprintf("\n%s (%s:%d)", escape.VisibleKeepNewlines(r.Message), vis(opts.repoPath(r.Path)), r.Start.Line)
	}
	if f := firstFix(d, opts.Unsafe); f != "" {
		msg += "\n" + escape.VisibleKeepNewlines(f)
	}
	for _, n := range []string{s.SameNote(), s.MoreNote(opts.MaxSame)} {
		if n != "" {
			msg += "\n" + n
		}
	}
	fmt.Fprintf(b, "::%s %s::%s\n", githubLevel(d.Severity), strings.Join(props, ","), escapeData(msg))
}

// firstFix describes the fix --fix would apply, or the hidden one.
func firstFix(d *rules.Diagnostic, unsafe bool) string {
	ok, hidden := Fixable(d, unsafe)
	for _, f := range d.Fixes {
		switch {
		case ok && (f.Applicability == rules.Safe || unsafe && f.Applicability == rules.Unsafe) && len(f.Edits) > 0:
			return "Fix: " + f.Message + " (mcplint --fix" + map[bool]string{true: " --unsafe-fixes", false: ""}[f.Applicability == rules.Unsafe] + ")"
		case hidden && f.Applicability == rules.Unsafe && len(f.Edits) > 0:
			return "Fix: " + f.Message + " (unsafe: mcplint --fix --unsafe-fixes)"
		}
	}
	return ""
}

// The workflow command escapes of @actions/core (built once: a Replacer
// builds its tables on first use).
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeData escapes a workflow command's message as @actions/core does.
func escapeData(s string) string { return dataEscaper.Replace(s) }

// escapeProperty escapes a workflow command property as @actions/core does.
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
