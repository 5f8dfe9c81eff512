package report

import (
	"fmt"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// DefaultMaxSame is the command line's --max-same-findings: how many
// findings with the same rule, file and message the outputs people read
// show before folding the rest into a count (golangci-lint's
// max-same-issues; 0 shows all).
const DefaultMaxSame = 50

// Shown is one finding as the text, markdown, github and SARIF outputs show
// it, with what was merged or folded into it.
type Shown struct {
	D *rules.Diagnostic
	// Same counts the other findings identical to D (same rule, file, range
	// and message): one finding reported more than once, shown once.
	Same int
	// More counts the findings with D's rule, file and message, at other
	// places, that come after D and are not shown (the cap was reached with
	// D); MoreFirst and MoreLast are the first and last of their lines.
	More                int
	MoreFirst, MoreLast int
}

// Fold returns the findings to show, in order: identical findings (same
// rule, severity, file, range and message) merged into the first, and at
// most maxSame (0: no limit) findings per rule, severity, file and message,
// the rest counted on the last one shown. Nothing is dropped
// silently: every output that folds says how many findings it folded and
// where, and counts (summaries, exit codes, baselines) still count every
// finding. Memory is in proportion to the findings shown.
func Fold(ds []rules.Diagnostic, maxSame int) []Shown {
	ps := make([]*rules.Diagnostic, len(ds))
	for i := range ds {
		ps[i] = &ds[i]
	}
	return foldPtrs(ps, maxSame)
}

// foldPtrs is Fold on pointers.
func foldPtrs(ds []*rules.Diagnostic, maxSame int) []Shown {
	type group struct {
		code, path, msg string
		sev             rules.Severity
	}
	type exact struct {
		group
		start, end pyast.Position
	}
	type state struct{ shown, last int }
	seen := map[exact]int{}
	groups := map[group]*state{}
	var out []Shown
	for _, d := range ds {
		gk := group{d.Code, d.Path, d.Message, d.Severity}
		ek := exact{gk, d.Start, d.End}
		if k, ok := seen[ek]; ok {
			out[k].Same++
			out[k].addMore(d.More)
			continue
		}
		g := groups[gk]
		if g == nil {
			g = &state{}
			groups[gk] = g
		}
		if maxSame > 0 && g.shown >= maxSame {
			s := &out[g.last]
			s.addMore([]rules.Place{{Line: int32(d.Start.Line)}})
			s.addMore(d.More)
			continue
		}
		g.shown++
		g.last = len(out)
		seen[ek] = len(out)
		out = append(out, Shown{D: d})
		out[len(out)-1].addMore(d.More)
	}
	return out
}

// addMore counts the findings at places ps (the engine kept them as their
// place alone, Diagnostic.More) as folded into s.
func (s *Shown) addMore(ps []rules.Place) {
	for _, p := range ps {
		line := int(p.Line)
		if s.More == 0 {
			s.MoreFirst, s.MoreLast = line, line
		}
		s.More++
		s.MoreFirst, s.MoreLast = min(s.MoreFirst, line), max(s.MoreLast, line)
	}
}

// SameNote says what was merged into s, "" when nothing was.
func (s Shown) SameNote() string {
	if s.Same == 0 {
		return ""
	}
	return fmt.Sprintf("reported %d times at this place (identical findings are shown once)", s.Same+1)
}

// MoreNote says what was folded into s, "" when nothing was.
func (s Shown) MoreNote(maxSame int) string {
	if s.More == 0 {
		return ""
	}
	lines := fmt.Sprintf("line %d", s.MoreFirst)
	if s.MoreLast != s.MoreFirst {
		lines = fmt.Sprintf("lines %d-%d", s.MoreFirst, s.MoreLast)
	}
	return fmt.Sprintf("%s more %s in %s with this message (%s) not shown: at most %d per rule, file and message (--max-same-findings; 0 shows all)",
		fmt.Sprint(s.More), pluralWord(s.More, s.D.Code+" finding"), vis(s.D.Path), lines, maxSame)
}

// pluralWord returns word or its plural for n.
func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
