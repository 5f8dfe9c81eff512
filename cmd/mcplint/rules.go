package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
	"golang.org/x/term"
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
			var rows [][]string
			for _, r := range rules.All() {
				fix := map[rules.FixAvailability]string{rules.FixNone: "-", rules.FixSometimes: "sometimes", rules.FixAlways: "yes"}[r.Fix]
				d := sel[r.Code]
				on := "off"
				if d.On {
					on = "on"
				}
				rows = append(rows, []string{r.Code, r.Name, fix, on, d.Why, r.Doc.Summary})
			}
			_, err = io.WriteString(out, rulesTable(rows, tableWidth(out)))
			return err
		},
	}
	selectionFlags(c, f)
	c.Flags().StringVar(&format, "output-format", "full", "full (a table) or json (an array of the rules, with their documentation)")
	return c
}

// rulesHeader names the columns of `mcplint rules`.
var rulesHeader = []string{"CODE", "NAME", "FIX", "ENABLED", "WHY", "SUMMARY"}

// rulesTable lays out the rows of `mcplint rules` in at most width columns.
// When every row fits on one line it is a plain table. Otherwise the summary
// goes on the lines below its row, indented under the name, and the WHY
// column (a configuration path can be long) wraps in the width that is
// left: columns stay aligned, and no word is cut unless it is wider than
// its column.
func rulesTable(rows [][]string, width int) string {
	const gap = 2
	widths := make([]int, len(rulesHeader))
	for _, row := range append([][]string{rulesHeader}, rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := 0
	for _, w := range widths {
		total += w + gap
	}
	var b strings.Builder
	line := func(cells []string, ws []int) {
		var parts []string
		for i, c := range cells {
			if i == len(cells)-1 {
				parts = append(parts, c)
			} else {
				parts = append(parts, c+strings.Repeat(" ", ws[i]-utf8.RuneCountInString(c)+gap))
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, ""), " ") + "\n")
	}
	if total-gap <= width {
		for _, row := range append([][]string{rulesHeader}, rows...) {
			line(row, widths)
		}
		return b.String()
	}
	// Stacked: CODE NAME FIX ENABLED WHY, then the summary.
	lead := 0
	for _, w := range widths[:4] {
		lead += w + gap
	}
	whyWidth := max(width-lead, 16)
	indent := widths[0] + gap
	line(rulesHeader[:5], widths)
	for _, row := range rows {
		for i, why := range wrapWords(row[4], whyWidth) {
			cells := []string{"", "", "", "", why}
			if i == 0 {
				cells = row[:5]
				cells[4] = why
			}
			line(cells, widths)
		}
		for _, s := range wrapWords(row[5], max(width-indent, 16)) {
			b.WriteString(strings.Repeat(" ", indent) + s + "\n")
		}
	}
	return b.String()
}

// wrapWords breaks s into lines of at most width characters at spaces; a
// word wider than width is broken where the width ends.
func wrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		for utf8.RuneCountInString(w) > width {
			if cur != "" {
				lines, cur = append(lines, cur), ""
			}
			i := 0
			for n := 0; n < width; n++ {
				_, size := utf8.DecodeRuneInString(w[i:])
				i += size
			}
			lines, w = append(lines, w[:i]), w[i:]
		}
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= width:
			cur += " " + w
		default:
			lines, cur = append(lines, cur), w
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// defaultTableWidth is the width of `mcplint rules` when stdout is not a
// terminal (a pipe, a file, a CI log).
const defaultTableWidth = 100

// tableWidth is the terminal's width when w is one (as ruff sizes its
// tables), else $COLUMNS when set (as ls and Python's
// shutil.get_terminal_size read it), else defaultTableWidth.
func tableWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTerminal(w) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return n
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return defaultTableWidth
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
