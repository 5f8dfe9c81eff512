package fix

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// Mode says which fixes to apply.
type Mode struct {
	Unsafe bool
	// Pick overrides the choice of fix (tests use it to apply one
	// alternative); nil means Choose with Unsafe.
	Pick func(*rules.Diagnostic) *rules.Fix
	// Rounds bounds the fix-and-recheck iterations (ruff does the same);
	// 0 means 4.
	Rounds int
}

// FileResult is one file the fixes change.
type FileResult struct {
	Path  string
	Old   []byte
	New   []byte
	Fixed int // findings fixed in this file (counted on their primary file; a finding fixed only through other files, on the first file of its fix)
	// Created: the file is new (Old is empty); it is written only when
	// nothing exists at Path.
	Created bool
	// Stamp is what the file held when the fixes were computed from it;
	// Write does not replace a file that no longer matches it.
	Stamp *Stamp
	// With are the other files that a fix applied here also changes (the
	// guard fix creates a module and imports it): Write writes them all,
	// or none.
	With []string
}

// Failure is a file left unchanged because its fixes failed a check.
type Failure struct {
	Path   string
	Reason string
}

// Outcome of Run.
type Outcome struct {
	Files    []*FileResult
	Fixed    int
	Failures []Failure
	// Result is the analysis of the fixed contents: what remains.
	Result *engine.Result
	// Roots are the scanned roots: Write changes no file outside them.
	Roots []string
}

// Run analyses roots, applies the chosen fixes in memory and checks them:
// each changed Python file must parse with no more errors than before, and
// each fixed finding must be gone when the analysis runs again on the new
// contents. A file that fails a check is left as it was. Nothing is written:
// call Write with the outcome (or print Diffs).
func Run(roots []string, opts engine.Options, mode Mode) (*Outcome, error) {
	choose := mode.Pick
	if choose == nil {
		choose = func(d *rules.Diagnostic) *rules.Fix { return Choose(d, mode.Unsafe) }
	}
	// Projects a fix moved to mcp 2.x in an earlier round: a later round
	// must not add the guard to them (coherent).
	moved := map[string]bool{}
	rounds := mode.Rounds
	if rounds <= 0 {
		rounds = 4
	}
	base := opts.Overlay
	overlay := map[string][]byte{}
	for k, v := range base {
		overlay[k] = v
	}
	original := map[string][]byte{}
	created := map[string]bool{}
	fixedIn := map[string]int{}
	together := sets{}
	out := &Outcome{Roots: roots}
	broken := map[string]string{}
	opts.Overlay = overlay
	// The rounds share a cache (in memory with --no-cache): each analyses
	// again only the projects whose files a fix changed.
	if opts.Cache == nil {
		opts.Cache = engine.NewCache(engine.CacheOptions{})
	}
	// Each analysis prepares the next round's (engine.Options.Speculate):
	// right after a project's analysis, while its parsed modules are in
	// memory, the project's fixes are planned as the round will plan them
	// and the project is analysed again with them, parsing only the files
	// they edit. The round's analysis then finds that in the cache.
	opts.Speculate = ahead(choose, nil, moved)
	res, err := engine.Run(roots, opts)
	if err != nil {
		return nil, err
	}
	// A file is read from disk once, as the first analysis saw it, and
	// stamped: Write checks the stamp right before it replaces the file, so
	// that an edit saved meanwhile is never lost.
	first := res
	stamps := map[string]*Stamp{}
	read := func(p string) ([]byte, error) {
		if b, ok := overlay[p]; ok {
			return b, nil
		}
		b, err := first.Read(p)
		if err != nil {
			return nil, err
		}
		if _, ok := stamps[p]; !ok {
			if stamps[p], err = stampOf(p, b); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	for round := 0; round < rounds; round++ {
		pick := coherent(choose, res.Diagnostics, moved)
		diags, changes, err := planRound(res.Diagnostics, pick, broken, read)
		if err != nil {
			return nil, err
		}
		if len(changes) == 0 {
			break
		}
		next := map[string][]byte{}
		for k, v := range overlay {
			next[k] = v
		}
		for _, c := range changes {
			if _, ok := original[c.Path]; !ok {
				original[c.Path] = c.Old
				created[c.Path] = c.Created
			}
			next[c.Path] = c.New
		}
		opts.Overlay = next
		opts.Speculate = nil
		if round+1 < rounds {
			opts.Speculate = ahead(choose, broken, movedAfter(moved, changes, diags, nil))
		}
		after, err := engine.Run(roots, opts)
		if err != nil {
			return nil, err
		}
		// Check every change; a failing file is reverted and not fixed again.
		errsBefore, errsAfter := fileErrors(diags), fileErrors(after.Diagnostics)
		failed := false
		reverted := map[string]bool{}
		for _, c := range changes {
			if reason := check(c, diags, after, errsBefore, errsAfter); reason != "" {
				broken[c.Path] = reason
				out.Failures = append(out.Failures, Failure{c.Path, reason})
				reverted[c.Path] = true
				failed = true
			}
		}
		// A finding whose fix edits only other files (the guard module for
		// MCP001) must be gone from its own, unchanged file too.
		for _, i := range elsewhereFixed(changes, diags) {
			d := diags[i]
			if reason := checkElsewhere(&d, pick(&d), after); reason != "" {
				for _, e := range pick(&d).Edits {
					if _, done := broken[e.Path]; done {
						continue
					}
					broken[e.Path] = reason
					out.Failures = append(out.Failures, Failure{e.Path, reason})
					reverted[e.Path] = true
				}
				failed = true
			}
		}
		// A fix is applied whole or not at all: the other files of a fix
		// applied to a reverted file are reverted too (not marked broken:
		// their other fixes are tried again next round, without it).
		for grown := true; grown; {
			grown = false
			for _, c := range changes {
				for _, f := range c.picked {
					if !anyEditIn(f, reverted) {
						continue
					}
					for _, e := range f.Edits {
						if !reverted[e.Path] {
							reverted[e.Path], grown = true, true
						}
					}
				}
			}
		}
		for p := range reverted {
			if orig, ok := overlay[p]; ok {
				next[p] = orig
			} else {
				delete(next, p)
			}
		}
		// The files of each fix that stays are written together.
		for _, c := range changes {
			for _, f := range c.picked {
				if !anyEditIn(f, reverted) {
					for _, e := range f.Edits {
						together.join(c.Path, e.Path)
					}
				}
			}
		}
		if failed {
			opts.Overlay = next
			if round+1 < rounds {
				opts.Speculate = ahead(choose, broken, movedAfter(moved, changes, diags, reverted))
			}
			if after, err = engine.Run(roots, opts); err != nil {
				return nil, err
			}
		} else {
			for _, c := range changes {
				for _, i := range c.Applied {
					if diags[i].Path == c.Path {
						fixedIn[c.Path]++
					}
				}
			}
			// Counted on the first file of its fix, so that a fix that is
			// not written is not counted.
			for _, i := range elsewhereFixed(changes, diags) {
				fixedIn[pick(&diags[i]).Edits[0].Path]++
			}
		}
		moved = movedAfter(moved, changes, diags, reverted)
		overlay = next
		res = after
	}
	for p, old := range original {
		cur, ok := overlay[p]
		if !ok || bytes.Equal(cur, old) {
			continue
		}
		fr := &FileResult{Path: p, Old: old, New: cur, Fixed: fixedIn[p], Created: created[p], Stamp: stamps[p]}
		out.Files = append(out.Files, fr)
		out.Fixed += fr.Fixed
	}
	sortFiles(out.Files)
	changed := map[string]bool{}
	for _, f := range out.Files {
		changed[f.Path] = true
	}
	groups := together.groups()
	for _, f := range out.Files {
		for _, p := range groups[together.find(f.Path)] {
			if p != f.Path && changed[p] {
				f.With = append(f.With, p)
			}
		}
	}
	out.Result = res
	return out, nil
}

// ahead returns the engine.Options.Speculate of an analysis that a round
// follows: the contents the round will give a project's files, planned from
// the project's findings as the round plans them (without the fixes of
// files found broken so far). A project whose plan creates a file, or
// edits a file of another project, the engine does not speculate on; a
// guess the round does not confirm (a check reverts a fix) is only work
// lost.
func ahead(pick func(*rules.Diagnostic) *rules.Fix, broken map[string]string, moved map[string]bool) func([]rules.Diagnostic, func(string) ([]byte, error)) map[string][]byte {
	known := make(map[string]string, len(broken))
	for p, r := range broken {
		known[p] = r
	}
	return func(diags []rules.Diagnostic, read func(string) ([]byte, error)) map[string][]byte {
		_, changes, err := planRound(diags, coherent(pick, diags, moved), known, read)
		if err != nil || len(changes) == 0 {
			return nil
		}
		next := make(map[string][]byte, len(changes))
		for _, c := range changes {
			if c.Created {
				return nil
			}
			next[c.Path] = c.New
		}
		return next
	}
}

// coherent returns pick, except that it picks no fix that needs mcp 1.x
// (the respond/cancel guard) for a project that a fix moves to mcp 2.x,
// in this round (another finding's pick) or an earlier one (moved): magg's
// MCP002 fastmcp>=4,<5 on pyproject.toml and MCP001's guard for its
// uv.lock would leave a guard that fails to import once re-locked. The
// move is listed first by the rules, so it wins.
func coherent(pick func(*rules.Diagnostic) *rules.Fix, diags []rules.Diagnostic, moved map[string]bool) func(*rules.Diagnostic) *rules.Fix {
	moving := map[string]bool{}
	for p := range moved {
		moving[p] = true
	}
	for i := range diags {
		if f := pick(&diags[i]); f != nil && f.MovesToMCP2 {
			moving[diags[i].Project] = true
		}
	}
	if len(moving) == 0 {
		return pick
	}
	return func(d *rules.Diagnostic) *rules.Fix {
		if f := pick(d); f != nil && !(f.NeedsMCP1 && moving[d.Project]) {
			return f
		}
		return nil
	}
}

// movedAfter returns moved with the projects that a round's fixes moved to
// mcp 2.x, but for fixes that edit a reverted file.
func movedAfter(moved map[string]bool, changes []*Change, diags []rules.Diagnostic, reverted map[string]bool) map[string]bool {
	out := make(map[string]bool, len(moved))
	for p := range moved {
		out[p] = true
	}
	for _, c := range changes {
		for i, f := range c.picked {
			if f.MovesToMCP2 && !anyEditIn(f, reverted) {
				out[diags[i].Project] = true
			}
		}
	}
	return out
}

// planRound plans a round's changes from the findings whose fixes touch no
// file found broken (kept). A round and the analysis made ahead of it
// (ahead) plan alike, or the analysis is work lost.
func planRound(diags []rules.Diagnostic, pick func(*rules.Diagnostic) *rules.Fix, broken map[string]string, read func(string) ([]byte, error)) (kept []rules.Diagnostic, changes []*Change, err error) {
	kept = diags[:0:0]
	for _, d := range diags {
		if !touchesBroken(pick(&d), broken) {
			kept = append(kept, d)
		}
	}
	changes, _, err = Plan(kept, pick, read)
	return kept, changes, err
}

// anyEditIn reports whether f edits one of paths.
func anyEditIn(f *rules.Fix, paths map[string]bool) bool {
	for _, e := range f.Edits {
		if paths[e.Path] {
			return true
		}
	}
	return false
}

// sets is a union-find of paths: the files that fixes change together.
type sets map[string]string

func (s sets) find(p string) string {
	for {
		q, ok := s[p]
		if !ok || q == p {
			return p
		}
		s[p] = s[q]
		p = q
	}
}

func (s sets) join(a, b string) {
	for _, p := range []string{a, b} {
		if _, ok := s[p]; !ok {
			s[p] = p
		}
	}
	ra, rb := s.find(a), s.find(b)
	if ra != rb {
		s[ra] = rb
	}
}

// groups returns the paths of each set, sorted, by the set's root (a
// path in no set is in none of them).
func (s sets) groups() map[string][]string {
	out := map[string][]string{}
	for q := range s {
		r := s.find(q)
		out[r] = append(out[r], q)
	}
	for _, g := range out {
		sort.Strings(g)
	}
	return out
}

func touchesBroken(f *rules.Fix, broken map[string]string) bool {
	if f == nil {
		return false
	}
	for _, e := range f.Edits {
		if _, ok := broken[e.Path]; ok {
			return true
		}
	}
	return false
}

// check verifies one change against the analysis of the new contents.
// errsBefore and errsAfter are fileErrors of diags and of after.
func check(c *Change, diags []rules.Diagnostic, after *engine.Result, errsBefore, errsAfter map[string]int) string {
	// The re-analysis parsed the new contents: a file that does not parse,
	// or whose dependency syntax broke, has more MCP000 findings than before.
	if errsAfter[c.Path] > errsBefore[c.Path] {
		return "the fixed file would not parse"
	}
	nl := Newline(c.Old)
	for _, i := range c.Applied {
		d := diags[i]
		if d.Path != c.Path {
			continue
		}
		partial := false
		if f := c.picked[i]; f != nil {
			partial = f.Partial
		}
		at := MapOffset(d.Start.Offset, c.edits, nl)
		// Text inserted where the finding starts ("async " before a
		// def) is either part of what the finding is on or, when the fix
		// made no difference, before it: look at both places (FuzzFixLoop
		// found a fix that did nothing accepted because the finding had
		// moved past its insertion).
		past := at + insertedAt(d.Start.Offset, c.edits, nl)
		for _, a := range after.Diagnostics {
			if a.Path != d.Path || a.Code != d.Code || a.Start.Offset != at && a.Start.Offset != past {
				continue
			}
			if !partial {
				return fmt.Sprintf("the fix for %s at line %d did not remove the finding", d.Code, d.Start.Line)
			}
			if a.Message == d.Message {
				return fmt.Sprintf("the partial fix for %s at line %d did not change the finding", d.Code, d.Start.Line)
			}
		}
	}
	return ""
}

// checkElsewhere verifies a finding fixed through other files: its file is
// unchanged, so the finding must be gone from where it was (or, for a
// partial fix, have changed).
func checkElsewhere(d *rules.Diagnostic, f *rules.Fix, after *engine.Result) string {
	for _, a := range after.Diagnostics {
		if a.Path != d.Path || a.Code != d.Code || a.Start.Offset != d.Start.Offset {
			continue
		}
		if f == nil || !f.Partial {
			return fmt.Sprintf("the fix for %s at %s:%d did not remove the finding", d.Code, d.Path, d.Start.Line)
		}
		if a.Message == d.Message {
			return fmt.Sprintf("the partial fix for %s at %s:%d did not change the finding", d.Code, d.Path, d.Start.Line)
		}
	}
	return ""
}

// elsewhereFixed returns the indices of the applied findings whose own file
// no change touches.
func elsewhereFixed(changes []*Change, diags []rules.Diagnostic) []int {
	touched := map[string]bool{}
	for _, c := range changes {
		touched[c.Path] = true
	}
	seen := map[int]bool{}
	var out []int
	for _, c := range changes {
		for _, i := range c.Applied {
			if !seen[i] && !touched[diags[i].Path] {
				seen[i] = true
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// fileErrors counts the MCP000 findings of each file.
func fileErrors(diags []rules.Diagnostic) map[string]int {
	n := map[string]int{}
	for _, d := range diags {
		if d.Code == rules.FileErrorCode {
			n[d.Path]++
		}
	}
	return n
}

// Diffs returns the unified diff of every changed file.
func Diffs(o *Outcome) string {
	var b strings.Builder
	for _, f := range o.Files {
		if f.Created {
			b.WriteString(NewFileDiff(f.Path, f.New))
			continue
		}
		b.WriteString(UnifiedDiff(f.Path, f.Old, f.New))
	}
	return b.String()
}

func sortFiles(fs []*FileResult) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].Path < fs[j-1].Path; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}
