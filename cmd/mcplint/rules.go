package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

// selectionFlags registers the flags that change which rules are enabled,
// for `rules` and `explain` (the same names and meaning as on check).
func selectionFlags(c *cobra.Command, f *checkFlags) {
	fl := c.Flags()
	fl.StringVar(&f.config, "config", "", "configuration file (default: found from PATH upward)")
	fl.BoolVar(&f.isolated, "isolated", false, "ignore every configuration file: defaults and flags only")
	fl.StringSliceVar(&f.selectCodes, "select", nil, "rules to run (codes, names or prefixes such as MCP1)")
	fl.StringSliceVar(&f.ignoreCodes, "ignore", nil, "rules not to run")
	fl.StringSliceVar(&f.extendSelect, "extend-select", nil, "rules to run in addition to the selection")
}

// currentSelection is the rule selection a check of paths would use.
func currentSelection(cmd *cobra.Command, paths []string, f *checkFlags) (*config.Config, map[string]config.Decision, error) {
	cfg, err := loadConfig(cmd, paths, f)
	if err != nil {
		return nil, nil, err
	}
	sel, err := selection(cmd, cfg, f)
	if err == nil {
		warnConfig(cmd, f, cfg, sel)
	}
	return cfg, sel, err
}

func newRulesCmd() *cobra.Command {
	f := &checkFlags{}
	var format string
	c := &cobra.Command{
		Use:   "rules [PATH]",
		Short: "List the rules, and which the configuration for PATH (default .) enables and why",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, sel, err := currentSelection(cmd, args, f)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch strings.ToLower(format) {
			case "json":
				return writeRulesJSON(out, cfg, sel)
			case "", "full", "text":
			default:
				return usageError{fmt.Errorf("unknown --output-format %s for rules (one of full, json)%s", escape.Quote(format), didYouMean(format, []string{"full", "json"}))}
			}
			if cfg.Path != "" {
				fmt.Fprintf(out, "configuration: %s\n\n", escape.Visible(cfg.Path))
			} else {
				fmt.Fprintf(out, "configuration: none found (defaults)\n\n")
			}
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "CODE\tNAME\tFIX\tENABLED\tWHY\tSUMMARY")
			for _, r := range rules.All() {
				fix := map[rules.FixAvailability]string{rules.FixNone: "-", rules.FixSometimes: "sometimes", rules.FixAlways: "yes"}[r.Fix]
				d := sel[r.Code]
				on := "off"
				if d.On {
					on = "on"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, fix, on, d.Why, r.Doc.Summary)
			}
			return w.Flush()
		},
	}
	selectionFlags(c, f)
	c.Flags().StringVar(&format, "output-format", "full", "full (a table) or json (an array of the rules, with their documentation)")
	return c
}

// JSONRule is one rule in `mcplint rules --output-format json`.
type JSONRule struct {
	Code        string   `json:"code"`
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`     // code, dependency or meta
	Severity    string   `json:"severity"` // where the project's versions can crash
	Fix         string   `json:"fix"`      // none, sometimes or always
	DefaultOff  bool     `json:"default_off"`
	Enabled     bool     `json:"enabled"` // in the configuration for PATH and the flags
	Why         string   `json:"why"`
	Summary     string   `json:"summary"`
	Tags        []string `json:"tags"`
	Explanation string   `json:"explanation"` // Markdown, as `mcplint explain` prints it
}

// writeRulesJSON writes every rule as a JSON array (ruff's
// `rule --all --output-format json`), with its state in the configuration.
func writeRulesJSON(w io.Writer, cfg *config.Config, sel map[string]config.Decision) error {
	out := []JSONRule{}
	for _, r := range rules.All() {
		d := sel[r.Code]
		out = append(out, JSONRule{
			Code: r.Code, Name: r.Name,
			Kind:       map[rules.Kind]string{rules.CodeRule: "code", rules.DependencyRule: "dependency", rules.MetaRule: "meta"}[r.Kind],
			Severity:   r.Severity.String(),
			Fix:        map[rules.FixAvailability]string{rules.FixNone: "none", rules.FixSometimes: "sometimes", rules.FixAlways: "always"}[r.Fix],
			DefaultOff: r.DefaultOff, Enabled: d.On, Why: d.Why, Summary: r.Doc.Summary,
			Tags: append([]string{}, r.Tags...), Explanation: r.Markdown(),
		})
	}
	// Why quotes the configuration, which a repository writes: the same
	// escaping as every other JSON output (no raw controls or bidi).
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(escape.JSON(b.Bytes()))
	return err
}

func newExplainCmd() *cobra.Command {
	f := &checkFlags{}
	c := &cobra.Command{
		Use:   "explain CODE [PATH]",
		Short: "Show a rule's documentation, and whether the configuration for PATH (default .) enables it",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := rules.Lookup(args[0])
			if r == nil {
				return usageError{fmt.Errorf("unknown rule %q (see `mcplint rules`)", args[0])}
			}
			cfg, sel, err := currentSelection(cmd, args[1:], f)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), explainText(r, cfg, sel))
			return nil
		},
	}
	selectionFlags(c, f)
	return c
}

// explainText is what `mcplint explain` prints for r (the server's hover
// too): the rule's documentation, and whether the configuration enables it.
func explainText(r *rules.Rule, cfg *config.Config, sel map[string]config.Decision) string {
	d := sel[r.Code]
	state := "off"
	if d.On {
		state = "on"
	}
	where := "the defaults (no configuration file)"
	if cfg.Path != "" {
		where = cfg.Path
	}
	return r.Markdown() + fmt.Sprintf("## In this configuration\n%s: %s (from %s and the command line)\n", state, d.Why, where)
}
