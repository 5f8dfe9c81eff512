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

// Silenced returns a Warning for each way the file c leaves no rule on but
// MCP000 (which reports only files that cannot be read), so that a
// configuration cannot make a run silent without saying so: final is the
// run's selection, without the selection the run would have without the
// file's layer. The whole selection is reported when the file turns off every
// rule the command line alone would run (at its select, or else its first
// ignore); otherwise each per-file-ignores entry that turns off every rule
// that is on, for the files it matches.
func (c *Config) Silenced(final, without map[string]Decision) []Warning {
	on := func(sel map[string]Decision) []string {
		var codes []string
		for _, r := range rules.All() {
			if r.Code != rules.FileErrorCode && sel[r.Code].On {
				codes = append(codes, r.Code)
			}
		}
		return codes
	}
	enabled := on(final)
	if len(enabled) == 0 {
		if len(on(without)) == 0 {
			return nil // the command line alone runs no rule: its own choice
		}
		where := c.SelectWhere
		if !c.SelectSet && len(c.Ignore) > 0 {
			where = c.Ignore[0].Where
		}
		return []Warning{c.warning(where, "this configuration turns off every rule but MCP000 (files that cannot be read): "+
			"nothing else is checked, so a clean result means nothing (see `mcplint rules`)")}
	}
	var out []Warning
	for _, p := range c.PerFileIgnores {
		off := map[string]bool{}
		for _, sel := range p.Codes {
			for _, code := range Codes(sel.Value) {
				off[code] = true
			}
		}
		all := true
		for _, code := range enabled {
			all = all && off[code]
		}
		if all {
			out = append(out, c.warning(p.Pattern.Where, fmt.Sprintf("per-file-ignores %s turns off every rule that is on but MCP000 "+
				"(files that cannot be read) for the files it matches: nothing else is checked in them", escape.Quote(p.Pattern.Value))))
		}
	}
	return out
}

// warning is a Silences Warning at where ("path:line:col"; the file's path alone
// when empty).
func (c *Config) warning(where, msg string) Warning {
	line, col := splitWhere(where)
	return Warning{Path: c.Path, Line: line, Column: col, Msg: msg, Silences: true}
}
