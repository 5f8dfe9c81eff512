package main

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

// buildOptions turns flags (and, later, configuration files) into engine
// options: the rule selection, assumed versions, walk filters and the
// result processors.
func buildOptions(cmd *cobra.Command, paths []string, f *checkFlags) (engine.Options, error) {
	opts := engine.Options{
		Jobs:              f.jobs,
		AssumeMCP:         f.assumeMCP,
		AssumeFastMCP:     f.assumeFastMCP,
		ShowSafe:          f.showSafe,
		ReportUnreachable: f.reportUnreachable,
		HandlerDecorators: f.handlerDecorators,
	}
	sel, err := selectRules(f.selectCodes, f.extendSelect, f.ignoreCodes)
	if err != nil {
		return opts, usageError{err}
	}
	opts.Rules = sel
	return opts, nil
}

// selectRules applies --select / --extend-select / --ignore. Selectors are
// codes, code prefixes (MCP1) or names; "ALL" selects everything.
func selectRules(selectors, extend, ignore []string) ([]*rules.Rule, error) {
	match := func(sel string, r *rules.Rule) bool {
		s := strings.ToUpper(strings.TrimSpace(sel))
		return s == "ALL" || strings.HasPrefix(r.Code, s) || strings.EqualFold(sel, r.Name)
	}
	check := func(list []string) error {
		for _, s := range list {
			found := false
			for _, r := range rules.All() {
				if match(s, r) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("unknown rule selector %q (see `mcplint rules`)", s)
			}
		}
		return nil
	}
	for _, l := range [][]string{selectors, extend, ignore} {
		if err := check(l); err != nil {
			return nil, err
		}
	}
	var out []*rules.Rule
	for _, r := range rules.All() {
		on := !r.DefaultOff
		if len(selectors) > 0 {
			on = false
			for _, s := range selectors {
				if match(s, r) && (!r.DefaultOff || !strings.EqualFold(s, "ALL")) || match(s, r) && strings.EqualFold(s, r.Code) {
					on = true
				}
			}
		}
		for _, s := range extend {
			if match(s, r) {
				on = true
			}
		}
		for _, s := range ignore {
			if match(s, r) {
				on = false
			}
		}
		if r.Kind == rules.MetaRule && r.Code == rules.FileErrorCode {
			on = true // unreadable files are always reported
		}
		if on {
			out = append(out, r)
		}
	}
	return out, nil
}

// afterRun runs the steps that follow the analysis (writing a baseline).
func afterRun(f *checkFlags, res *engine.Result) error { return nil }
