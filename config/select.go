package config

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/rules"
)

// Layer is one source of rule selection: the configuration file, then the
// command line. Later layers override earlier ones.
type Layer struct {
	Select       []Item // replaces the selection when SelectSet
	SelectSet    bool
	ExtendSelect []Item
	Ignore       []Item
}

// Decision says whether a rule runs and why.
type Decision struct {
	On  bool
	Why string
}

// Selection decides, for every registered rule, whether it runs. It starts
// from the defaults (rules marked DefaultOff are off) and applies each layer
// in order. Within a layer, a rule is on when matched by select or
// extend-select and off when matched by ignore; when both match, the more
// specific selector wins (a full code or name beats a prefix, a longer prefix
// a shorter one, ALL is the least specific) and ignore wins a tie. "ALL"
// never turns on a rule that is off by default. MCP000 (unreadable files) is
// always on. An unknown selector is an error naming where it was written.
func Selection(layers ...Layer) (map[string]Decision, error) {
	for _, l := range layers {
		for _, list := range [][]Item{l.Select, l.ExtendSelect, l.Ignore} {
			for _, it := range list {
				if !Known(it.Value) {
					return nil, fmt.Errorf("%s: unknown rule selector %s (see `mcplint rules`)", it.Where, escape.Quote(it.Value))
				}
			}
		}
	}
	out := map[string]Decision{}
	for _, r := range rules.All() {
		d := Decision{On: !r.DefaultOff, Why: "on by default"}
		if r.DefaultOff {
			d.Why = "off by default (select it by code or name)"
		}
		for _, l := range layers {
			sel, selIt := best(r, append(append([]Item(nil), l.Select...), l.ExtendSelect...), true)
			ign, ignIt := best(r, l.Ignore, false)
			switch {
			case sel < 0 && ign < 0:
				if l.SelectSet {
					d = Decision{On: false, Why: "not in select" + whereOf(l.Select)}
				}
			case sel > ign:
				d = Decision{On: true, Why: fmt.Sprintf("selected by %s (%s)", escape.Quote(selIt.Value), selIt.Where)}
			default:
				d = Decision{On: false, Why: fmt.Sprintf("ignored by %s (%s)", escape.Quote(ignIt.Value), ignIt.Where)}
			}
		}
		if r.Code == rules.FileErrorCode {
			d = Decision{On: true, Why: "always on: files that cannot be read are always reported"}
		}
		out[r.Code] = d
	}
	return out, nil
}

func whereOf(items []Item) string {
	if len(items) == 0 {
		return " (empty)"
	}
	w := items[0].Where
	if i := strings.LastIndexByte(w, ':'); i > 0 {
		if j := strings.LastIndexByte(w[:i], ':'); j > 0 {
			w = w[:i] // file:line
		}
	}
	return " (" + w + ")"
}

// best returns the specificity of the most specific selector in list that
// matches r (-1 when none) and that selector.
func best(r *rules.Rule, list []Item, selecting bool) (int, Item) {
	score, item := -1, Item{}
	for _, it := range list {
		s := Specificity(it.Value, r)
		if s < 0 || selecting && s == 0 && r.DefaultOff {
			continue
		}
		if s > score {
			score, item = s, it
		}
	}
	return score, item
}

// Specificity tells how closely selector matches r: -1 no match, 0 for ALL,
// the prefix length for a code prefix, 100 for the rule's full code or name.
func Specificity(selector string, r *rules.Rule) int {
	s := strings.ToUpper(strings.TrimSpace(selector))
	switch {
	case s == "ALL":
		return 0
	case s == r.Code || strings.EqualFold(strings.TrimSpace(selector), r.Name):
		return 100
	case s != "" && strings.HasPrefix(r.Code, s):
		return len(s)
	}
	return -1
}

// Known tells whether a selector matches at least one rule.
func Known(selector string) bool {
	for _, r := range rules.All() {
		if Specificity(selector, r) >= 0 {
			return true
		}
	}
	return false
}

// Codes returns the codes of the rules that selector matches, ignoring the
// default-off rule of ALL (per-file-ignores, suppressions).
func Codes(selector string) []string {
	var out []string
	for _, r := range rules.All() {
		if Specificity(selector, r) >= 0 {
			out = append(out, r.Code)
		}
	}
	return out
}

// Silenced returns a Warning when the file c turns off every rule the
// command line alone would run but MCP000 (which reports only files that
// cannot be read), so that a configuration cannot make a run silent without
// saying so: final is the run's selection, without the selection the run
// would have without the file's layer. The Warning is at the file's select,
// or else its first ignore. SilencedFiles does the same for per-file-ignores.
func (c *Config) Silenced(final, without map[string]Decision) []Warning {
	if len(enabled(final)) > 0 || len(enabled(without)) == 0 {
		return nil // some rule runs, or the command line alone runs none: its own choice
	}
	where := c.SelectWhere
	if !c.SelectSet && len(c.Ignore) > 0 {
		where = c.Ignore[0].Where
	}
	return []Warning{c.warning(where, "this configuration turns off every rule but MCP000 (files that cannot be read): "+
		"nothing else is checked, so a clean result means nothing (see `mcplint rules`)")}
}

// enabled lists the rules sel turns on, but MCP000.
func enabled(sel map[string]Decision) []string {
	var codes []string
	for _, r := range rules.All() {
		if r.Code != rules.FileErrorCode && sel[r.Code].On {
			codes = append(codes, r.Code)
		}
	}
	return codes
}

// MaxSilencedChecks bounds SilencedFiles' work, in matches of a path
// against an entry (a hostile file could hold thousands of entries).
const MaxSilencedChecks = 1 << 20

// SilencedFiles returns a Warning for each set of per-file-ignores entries
// that together turn off every rule that is on under final (but MCP000)
// for some of paths (the files the run visited, as its findings name
// them), with how many files and the first few; nil when some rule still
// runs on every file. Past MaxSilencedChecks matches, the files not yet
// checked are not, and a Warning says so.
func (c *Config) SilencedFiles(final map[string]Decision, paths []string) []Warning {
	on := enabled(final)
	if len(on) == 0 {
		return nil // Silenced's case (or the command line's choice)
	}
	type entry struct {
		i     int
		globs *Globs
		off   map[string]bool // the rules of on it turns off
	}
	var entries []entry
	union := map[string]bool{}
	for i, p := range c.PerFileIgnores {
		e := entry{i: i, globs: NewGlobs(c.Dir, []string{p.Pattern.Value}), off: map[string]bool{}}
		for _, sel := range p.Codes {
			for _, code := range Codes(sel.Value) {
				if final[code].On && code != rules.FileErrorCode {
					e.off[code], union[code] = true, true
				}
			}
		}
		if len(e.off) > 0 {
			entries = append(entries, e)
		}
	}
	if len(union) < len(on) {
		return nil // not even all the entries together turn every rule off
	}
	type group struct {
		entries []int
		files   []string // the first few
		n       int
	}
	var groups []*group
	byKey := map[string]*group{}
	var all *Globs // for rel, shared by the entries (all relative to c.Dir)
	if len(entries) > 0 {
		all = entries[0].globs
	}
	checks, unchecked := 0, 0
	for k, p := range paths {
		if checks+len(entries) > MaxSilencedChecks {
			unchecked = len(paths) - k
			break
		}
		checks += len(entries)
		rel := all.rel(p)
		var hit []int
		off := map[string]bool{}
		for _, e := range entries {
			if e.globs.matchRel(rel) {
				hit = append(hit, e.i)
				for code := range e.off {
					off[code] = true
				}
			}
		}
		if len(off) < len(on) {
			continue
		}
		key := fmt.Sprint(hit)
		g := byKey[key]
		if g == nil {
			g = &group{entries: hit}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.n++
		if len(g.files) < 3 {
			g.files = append(g.files, p)
		}
	}
	var out []Warning
	for _, g := range groups {
		var names []string
		for k, i := range g.entries {
			if k == 5 {
				names = append(names, fmt.Sprintf("and %d more", len(g.entries)-k))
				break
			}
			names = append(names, fmt.Sprintf("%s (%s)", escape.Quote(c.PerFileIgnores[i].Pattern.Value), c.PerFileIgnores[i].Pattern.Where))
		}
		var files []string
		for _, f := range g.files {
			files = append(files, escape.Quote(f))
		}
		if g.n > len(g.files) {
			files = append(files, fmt.Sprintf("and %d more", g.n-len(g.files)))
		}
		out = append(out, c.warning(c.PerFileIgnores[g.entries[0]].Pattern.Where, fmt.Sprintf(
			"per-file-ignores %s turn%s off every rule that is on but MCP000 (files that cannot be read) for %d scanned file%s (%s): nothing else is checked in %s",
			strings.Join(names, ", "), map[bool]string{true: "s", false: ""}[len(g.entries) == 1], g.n, map[bool]string{true: "", false: "s"}[g.n == 1],
			strings.Join(files, ", "), map[bool]string{true: "it", false: "them"}[g.n == 1])))
	}
	if unchecked > 0 {
		out = append(out, c.warning(c.PerFileIgnores[0].Pattern.Where, fmt.Sprintf(
			"per-file-ignores: %d entries are too many to check whether they turn every rule off for the last %d of %d scanned files",
			len(entries), unchecked, len(paths))))
	}
	return out
}

// warning is a Silences Warning at where ("path:line:col"; the file's path
// alone when empty).
func (c *Config) warning(where, msg string) Warning {
	line, col := splitWhere(where)
	return Warning{Path: c.Path, Line: line, Column: col, Msg: msg, Silences: true}
}
