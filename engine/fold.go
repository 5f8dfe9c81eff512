package engine

import (
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Refold decides d and each finding folded into it (Diagnostic.More) one by
// one, as if every one were kept in full: keep is called with d (a copy
// without its folded findings) and then with each folded finding as
// Diagnostic.FoldedAt makes it (its own range, no fixes), may change it,
// and returns whether it stays. What stays comes back folded again: d (as
// keep left it) with the places that stay, or, when d itself does not, the
// first finding that stays carrying the rest. ok is false when none stays.
//
// A processor that drops or marks findings one by one (suppression
// comments, baselines, changed lines) decides through it, so a finding
// counts the same whether it was kept in full or as its place.
func (r *Result) Refold(d rules.Diagnostic, keep func(*rules.Diagnostic) bool) (out rules.Diagnostic, ok bool) {
	more := d.More
	d.More = nil
	if len(more) == 0 {
		return d, keep(&d)
	}
	li := r.lineIndex(d.Path)
	kept := make([]rules.Place, 0, len(more))
	if keep(&d) {
		out, ok = d, true
	}
	var m rules.Diagnostic // one for all: keep does not hold on to it
	for _, pl := range more {
		m = d.FoldedAt(pl, li)
		if !keep(&m) {
			continue
		}
		if !ok {
			out, ok = m, true
			continue
		}
		kept = append(kept, pl)
	}
	out.More = kept
	return out, ok
}

// lineIndex returns the line index of a file the run read, nil when it
// cannot be read (Diagnostic.FoldedAt then gives lines alone).
func (r *Result) lineIndex(path string) *pyast.LineIndex {
	if li, ok := r.lines[path]; ok {
		return li
	}
	var li *pyast.LineIndex
	if src, err := r.Read(path); err == nil {
		li = pyast.NewLineIndex(src)
	}
	if r.lines == nil {
		r.lines = map[string]*pyast.LineIndex{}
	}
	r.lines[path] = li
	return li
}
