package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Limit is one configured limit of the [limits] table with where it was
// written. Value is a count (a whole number but for parse-steps-per-byte),
// or nanoseconds for parse-cpu.
type Limit struct {
	Value float64
	Where string
}

// LimitKeys lists the keys of the limits table (docs/configuration.md,
// "Limits") with what each accepts. 0 turns a limit off, except
// parse-steps-per-byte, where 0 leaves the fixed parse-steps budget.
var LimitKeys = map[string]string{
	"parse-steps":          "a non-negative integer (0: no step limit)",
	"parse-steps-per-byte": "a number from 0 to 1000000",
	"syntax-nodes":         "an integer from 0 (no limit) to 2000000000",
	"syntax-depth":         "an integer from 0 (no limit) to 2000000000",
	"parse-cpu":            `a non-negative duration such as "3s" or "500ms" (0: no limit)`,
	"function-steps":       "a non-negative integer (0: no limit)",
}

// limitMax bounds each count, so that budgets cannot overflow.
var limitMax = map[string]float64{
	"parse-steps":          1 << 50,
	"parse-steps-per-byte": 1_000_000,
	"syntax-nodes":         2_000_000_000,
	"syntax-depth":         2_000_000_000,
	"function-steps":       1 << 50,
}

// LimitDefaults are the limits of a run that sets none (engine.DefaultLimits,
// by key), in the units of Limit.Value.
var LimitDefaults = map[string]float64{
	"parse-steps":          float64(pyast.DefaultLimits.Steps),
	"parse-steps-per-byte": pyast.DefaultLimits.StepsPerByte,
	"syntax-nodes":         float64(pyast.DefaultLimits.Nodes),
	"syntax-depth":         float64(pyast.DefaultLimits.Depth),
	"parse-cpu":            float64(pyast.DefaultLimits.CPU),
	"function-steps":       float64(checkpoint.DefaultFunctionSteps),
}

// Tightens tells whether limit name = v bounds a run at least as much as
// the default: not above it, and not 0 where 0 turns the limit off (for
// parse-steps-per-byte, 0 leaves the fixed budget alone: the tightest).
//
// The limits are guards against hostile input, and a configuration file is
// part of the repository it configures (a pull request can change it), so
// a file may only tighten them; only the command line (--limit) may loosen
// one. A file's limit that does not tighten is ignored with a Warning.
func Tightens(name string, v float64) bool {
	def, ok := LimitDefaults[name]
	if !ok {
		return false
	}
	if v == 0 {
		return name == "parse-steps-per-byte"
	}
	return v <= def
}

// FormatLimit writes a limit's value as --limit reads it.
func FormatLimit(name string, v float64) string {
	if name == "parse-cpu" {
		return time.Duration(v).String()
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ParseLimit reads the value of limit name written as text (a flag's
// --limit name=value): an integer (underscores allowed), or a duration for
// parse-cpu.
func ParseLimit(name, text string) (float64, error) {
	want, ok := LimitKeys[name]
	if !ok {
		return 0, fmt.Errorf("unknown limit %s; known limits: %s", escape.Quote(name), strings.Join(limitNames(), ", "))
	}
	text = strings.TrimSpace(text)
	if name == "parse-cpu" {
		d, err := time.ParseDuration(text)
		if text == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return 0, fmt.Errorf("limits.%s must be %s, got %s", name, want, escape.Quote(text))
		}
		return float64(d), nil
	}
	var v float64
	i, err := strconv.ParseInt(text, 0, 64)
	v = float64(i)
	if err != nil && name == "parse-steps-per-byte" {
		v, err = strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	}
	if err != nil || !(v >= 0 && v <= limitMax[name]) {
		return 0, fmt.Errorf("limits.%s must be %s, got %s", name, want, escape.Quote(text))
	}
	return v, nil
}

func limitNames() []string {
	var out []string
	for k := range LimitKeys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// limit applies limits.name = v.
func (d *decoder) limit(name string, keyNode, v *unstable.Node) error {
	if _, ok := LimitKeys[name]; !ok {
		msg := fmt.Sprintf("unknown key %s in limits; known keys: %s", escape.Quote(name), strings.Join(limitNames(), ", "))
		return d.errorf(keyNode, "%s", msg)
	}
	if err := d.mark("limits."+name, keyNode); err != nil {
		return err
	}
	n := v
	if !hasRaw(v) {
		n = keyNode
	}
	want := unstable.Integer
	if name == "parse-cpu" {
		want = unstable.String
	}
	ok := v.Kind == want || name == "parse-cpu" && v.Kind == unstable.Integer && string(v.Data) == "0" ||
		name == "parse-steps-per-byte" && v.Kind == unstable.Float
	if !ok {
		return d.errorf(n, "limits.%s must be %s, got %s", name, LimitKeys[name], kindName(v.Kind))
	}
	val, err := ParseLimit(name, string(v.Data))
	if err != nil {
		return d.errorf(n, "%v", err)
	}
	if !Tightens(name, val) {
		line, col := d.pos(n)
		what := "raise it above the default " + FormatLimit(name, LimitDefaults[name])
		if val == 0 {
			what = "turn it off"
		}
		d.cfg.Warnings = append(d.cfg.Warnings, Warning{Path: d.path, Line: line, Column: col, Msg: fmt.Sprintf(
			"limits.%s = %s ignored: a configuration file may lower a limit but not %s (the limits guard against hostile input, "+
				"and the file is part of the repository); the default %s stays (pass --limit %s=%s on the command line to change it)",
			name, FormatLimit(name, val), what, FormatLimit(name, LimitDefaults[name]), name, FormatLimit(name, val))})
		return nil
	}
	if d.cfg.Limits == nil {
		d.cfg.Limits = map[string]Limit{}
	}
	d.cfg.Limits[name] = Limit{Value: val, Where: d.where(n)}
	return nil
}
