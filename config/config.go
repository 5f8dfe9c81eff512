// Package config reads mcplint's configuration: the [tool.mcplint] table of
// pyproject.toml, or the top level of mcplint.toml / .mcplint.toml.
//
// Find looks for a file from the scan root upward, nearest first; in one
// directory mcplint.toml beats .mcplint.toml, which beats a pyproject.toml
// with a [tool.mcplint] table (a pyproject.toml without one is passed by).
// Unknown keys, wrong types, duplicate keys and unknown rule selectors are
// errors that name the file, line and column.
//
// The command line overrides the file, which overrides the defaults; the
// rule selection is computed by Selection from layers (see select.go).
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/internal/suggest"
	"github.com/pelletier/go-toml/v2/unstable"
)

// File names searched, in order of preference within a directory.
var Names = []string{"mcplint.toml", ".mcplint.toml", "pyproject.toml"}

// Item is one configured string with where it was written
// ("mcplint.toml:3:11", or a flag name such as "--select").
type Item struct {
	Value string
	Where string
}

// PerFileIgnore turns rules off for files matching a glob.
type PerFileIgnore struct {
	Pattern Item
	Codes   []Item
}

// Config is one configuration file's settings. Nil slices and pointers are
// settings the file does not make.
type Config struct {
	Path string // the file read; "" when there is none
	Dir  string // the directory globs are relative to (the file's)

	Select, ExtendSelect, Ignore []Item
	SelectSet                    bool   // select was written (possibly empty)
	SelectWhere                  string // where select was written ("path:line:col")
	Exclude, ExtendExclude       []Item
	ExcludeSet                   bool
	PerFileIgnores               []PerFileIgnore
	UnsafeFixes                  *bool
	HandlerDecorators            []Item
	AssumeMCP, AssumeFastMCP     *Item
	ReportUnreachable            *bool
	RespectGitignore             *bool
	// Limits are the limits table's settings, by key (LimitKeys); nil when
	// the file sets none. Only limits that tighten a default are kept
	// (Tightens); the others are Warnings.
	Limits map[string]Limit
	// Warnings are settings the file makes that mcplint does not honour (a
	// limit it may not loosen), in the order written.
	Warnings []Warning
}

// Warning is a setting of a configuration file that is ignored, or a
// configuration that makes the run report less than it seems to (no rule
// enabled), at the position it was written.
type Warning struct {
	Path         string
	Line, Column int
	Msg          string
	// Silences is set on a warning that the configuration leaves no rule
	// on (Silenced); the others are about a setting that is ignored.
	Silences bool
}

func (w Warning) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", w.Path, w.Line, w.Column, w.Msg)
}

// Keys lists every key the configuration accepts, with its type, for
// error messages and the docs.
var Keys = map[string]string{
	"select":             "an array of rule selectors",
	"extend-select":      "an array of rule selectors",
	"ignore":             "an array of rule selectors",
	"exclude":            "an array of glob patterns",
	"extend-exclude":     "an array of glob patterns",
	"per-file-ignores":   "a table of glob pattern = array of rule selectors",
	"unsafe-fixes":       "a boolean",
	"handler-decorators": "an array of qualified names",
	"assume-mcp":         "a non-empty version string",
	"assume-fastmcp":     "a non-empty version string",
	"report-unreachable": "a boolean",
	"respect-gitignore":  "a boolean",
	"limits":             "a table of limits such as parse-steps = 1000000",
}

// Error is a configuration mistake at a position.
type Error struct {
	Path         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
}

// Find returns the configuration file that applies to the scan root start
// (a directory or a file), searching it and its parents; "" when there is
// none. A pyproject.toml counts when it configures mcplint (or does not
// parse: Load then says why).
func Find(start string) (string, error) {
	p, _, err := find(start, nil)
	return p, err
}

// FindAndLoad finds the configuration that applies to start, as Find, and
// loads it from the bytes Find read: each file is read and parsed once.
// display gives the path its messages and Config.Path show (nil: as
// found). It returns nil, nil when there is none.
func FindAndLoad(start string, display func(string) string) (*Config, error) {
	if display == nil {
		display = func(p string) string { return p }
	}
	p, c, err := find(start, display)
	if err != nil || p == "" {
		return nil, err
	}
	if c == nil { // not a regular file, or too large: Load says why
		return Load(display(p))
	}
	return c, nil
}

// find walks up from start. It returns the configuration file's path and,
// when it could read it, the configuration (or its parse error) under
// display(path); display nil only looks.
func find(start string, display func(string) string) (string, *Config, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", nil, err
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		for _, name := range Names {
			p := filepath.Join(dir, name)
			if outside(p) != nil {
				return p, nil, nil // Load says why it is not read
			}
			src, err := safeio.ReadFile(p, safeio.Config)
			var nr *safeio.NotRegularError
			var tl *safeio.TooLargeError
			var vcs *safeio.VCSInternalError
			if errors.As(err, &nr) || errors.As(err, &tl) || errors.As(err, &vcs) {
				return p, nil, nil // Load says why it cannot be read
			}
			if err != nil {
				continue
			}
			shown, prefix := p, []string(nil)
			if display != nil {
				shown = display(p)
			}
			if name == "pyproject.toml" {
				prefix = []string{"tool", "mcplint"}
			}
			c, table, err := parse(shown, src, prefix)
			if err != nil {
				if display == nil {
					return p, nil, nil
				}
				return p, nil, err
			}
			if name != "pyproject.toml" || table {
				return p, c, nil
			}
		}
		if filepath.Dir(dir) == dir {
			return "", nil, nil
		}
	}
}

// Load reads the configuration file at path.
func Load(path string) (*Config, error) {
	if err := outside(path); err != nil {
		return nil, err
	}
	src, err := safeio.ReadFile(path, safeio.Config)
	if err != nil {
		return nil, fmt.Errorf("read configuration: %w", err)
	}
	prefix := []string(nil)
	if filepath.Base(path) == "pyproject.toml" {
		prefix = []string{"tool", "mcplint"}
	}
	return Parse(path, src, prefix)
}

// outside refuses a configuration file that is a symlink to a file outside
// the folder it was found or named in (once every symlink is resolved): a
// repository could point mcplint.toml at a file of the machine, whose
// content the parse errors would quote. A symlink within the folder
// (mcplint.toml -> configs/mcplint.toml) is read.
func outside(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		return nil // not a symlink: in its folder by definition
	}
	err = safeio.Within(filepath.Dir(path), path)
	var out *safeio.OutsideError
	if errors.As(err, &out) {
		return fmt.Errorf("read configuration: %s: a symlink to a file outside its folder: not read (name the file it points to with --config to read it)", escape.Visible(path))
	}
	return nil // a broken link: the read says so
}

// Parse reads configuration from src; prefix is the table that holds it
// (tool.mcplint in pyproject.toml, nothing in mcplint.toml).
func Parse(path string, src []byte, prefix []string) (*Config, error) {
	c, _, err := parse(path, src, prefix)
	return c, err
}

// parse is Parse; table tells whether src has anything under prefix.
func parse(path string, src []byte, prefix []string) (c *Config, table bool, err error) {
	d := &decoder{path: path, src: src, cfg: &Config{Path: path, Dir: filepath.Dir(path)}, seen: map[string]string{}}
	d.p.Reset(src)
	defer func() {
		// The unstable parser panics on a few malformed inputs; a bad file is
		// an error, never a crash.
		if v := recover(); v != nil {
			c, table, err = nil, false, &Error{Path: path, Msg: fmt.Sprintf("cannot parse: %v", v)}
		}
	}()
	var tbl []string
	for d.p.NextExpression() {
		n := d.p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			tbl = keyOf(n)
			rest, ok := under(tbl, prefix)
			if !ok {
				continue
			}
			table = true
			if n.Kind == unstable.ArrayTable {
				return nil, table, d.errorf(n.Child(), "[[%s]] must be a table, not an array of tables", strings.Join(tbl, "."))
			}
			switch {
			case len(rest) == 0:
			case len(rest) == 1 && rest[0] == "per-file-ignores":
				d.mark("per-file-ignores", n.Child())
			case len(rest) == 1 && rest[0] == "limits":
				if err := d.mark("limits", n.Child()); err != nil {
					return nil, table, err
				}
			default:
				return nil, table, d.unknown(lastKey(n), strings.Join(rest, "."))
			}
		case unstable.KeyValue:
			key := append(append([]string(nil), tbl...), keyOf(n)...)
			rest, ok := under(key, prefix)
			if !ok {
				continue
			}
			table = true
			if err := d.setting(rest, n.Value(), lastKey(n)); err != nil {
				return nil, table, err
			}
		}
	}
	if err := d.p.Error(); err != nil {
		return nil, table, d.parseError(err)
	}
	return d.cfg, table, nil
}

// under returns key with prefix removed, and whether key starts with it.
func under(key, prefix []string) ([]string, bool) {
	if len(key) < len(prefix) {
		return nil, false
	}
	for i := range prefix {
		if key[i] != prefix[i] {
			return nil, false
		}
	}
	return key[len(prefix):], true
}

func keyOf(n *unstable.Node) []string {
	var key []string
	for it := n.Key(); it.Next(); {
		key = append(key, string(it.Node().Data))
	}
	return key
}

func lastKey(n *unstable.Node) *unstable.Node {
	var last *unstable.Node
	for it := n.Key(); it.Next(); {
		last = it.Node()
	}
	return last
}

type decoder struct {
	path string
	src  []byte
	p    unstable.Parser
	cfg  *Config
	seen map[string]string // setting -> where first set
}

// setting applies key (relative to the configuration table) = v.
func (d *decoder) setting(key []string, v, keyNode *unstable.Node) error {
	if len(key) == 0 {
		// tool.mcplint = { select = [...] }
		if v.Kind != unstable.InlineTable {
			return d.errorf(keyNode, "the mcplint configuration must be a table")
		}
		return d.inline(nil, v)
	}
	name := key[0]
	if _, ok := Keys[name]; !ok {
		return d.unknown(keyNode, name)
	}
	if name == "per-file-ignores" && len(key) == 2 {
		return d.perFile(key[1], keyNode, v)
	}
	if name == "limits" && len(key) == 2 {
		return d.limit(key[1], keyNode, v)
	}
	if len(key) > 1 {
		return d.errorf(keyNode, "%s is not a table", name)
	}
	if err := d.mark(name, keyNode); err != nil {
		return err
	}
	c := d.cfg
	var err error
	switch name {
	case "select":
		c.Select, err = d.strings(name, keyNode, v)
		c.SelectSet, c.SelectWhere = true, d.where(keyNode)
		if c.Select == nil {
			c.Select = []Item{}
		}
	case "extend-select":
		c.ExtendSelect, err = d.strings(name, keyNode, v)
	case "ignore":
		c.Ignore, err = d.strings(name, keyNode, v)
	case "exclude":
		c.Exclude, err = d.strings(name, keyNode, v)
		c.ExcludeSet = true
	case "extend-exclude":
		c.ExtendExclude, err = d.strings(name, keyNode, v)
	case "handler-decorators":
		c.HandlerDecorators, err = d.strings(name, keyNode, v)
		for _, it := range c.HandlerDecorators {
			if !isQualifiedName(it.Value) {
				return &Error{Path: d.path, Msg: fmt.Sprintf("handler-decorators: %s is not a qualified name such as mypkg.tools.register", escape.Quote(it.Value)), Line: lineOf(it.Where), Column: colOf(it.Where)}
			}
		}
	case "per-file-ignores", "limits":
		if v.Kind != unstable.InlineTable {
			return d.typeError(name, keyNode, v)
		}
		err = d.inline([]string{name}, v)
	case "unsafe-fixes":
		c.UnsafeFixes, err = d.bool(name, keyNode, v)
	case "report-unreachable":
		c.ReportUnreachable, err = d.bool(name, keyNode, v)
	case "respect-gitignore":
		c.RespectGitignore, err = d.bool(name, keyNode, v)
	case "assume-mcp", "assume-fastmcp":
		var it *Item
		if v.Kind != unstable.String || strings.TrimSpace(string(v.Data)) == "" {
			return d.typeError(name, keyNode, v)
		}
		it = &Item{Value: strings.TrimSpace(string(v.Data)), Where: d.where(v)}
		if name == "assume-mcp" {
			c.AssumeMCP = it
		} else {
			c.AssumeFastMCP = it
		}
	}
	return err
}

// inline applies the key-values of an inline table under key.
func (d *decoder) inline(key []string, t *unstable.Node) error {
	for it := t.Children(); it.Next(); {
		kv := it.Node()
		if kv.Kind != unstable.KeyValue {
			continue // comments
		}
		k := append(append([]string(nil), key...), keyOf(kv)...)
		if err := d.setting(k, kv.Value(), lastKey(kv)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) perFile(pattern string, keyNode, v *unstable.Node) error {
	full := "per-file-ignores." + pattern
	if err := d.mark(full, keyNode); err != nil {
		return err
	}
	codes, err := d.strings("per-file-ignores", keyNode, v)
	if err != nil {
		return err
	}
	d.cfg.PerFileIgnores = append(d.cfg.PerFileIgnores, PerFileIgnore{Pattern: Item{Value: pattern, Where: d.where(keyNode)}, Codes: codes})
	return nil
}

// mark records that a setting is made, refusing a second time.
func (d *decoder) mark(name string, n *unstable.Node) error {
	if first, ok := d.seen[name]; ok {
		return d.errorf(n, "%s is set twice (first at %s)", name, first)
	}
	d.seen[name] = d.where(n)
	return nil
}

func (d *decoder) strings(name string, keyNode, v *unstable.Node) ([]Item, error) {
	if v.Kind != unstable.Array {
		return nil, d.typeError(name, keyNode, v)
	}
	var out []Item
	for it := v.Children(); it.Next(); {
		e := it.Node()
		if e.Kind == unstable.Comment {
			continue
		}
		if e.Kind != unstable.String {
			return nil, d.errorf(e, "%s: every element must be a string, got %s", name, kindName(e.Kind))
		}
		out = append(out, Item{Value: string(e.Data), Where: d.where(e)})
	}
	return out, nil
}

func (d *decoder) bool(name string, keyNode, v *unstable.Node) (*bool, error) {
	if v.Kind != unstable.Bool {
		return nil, d.typeError(name, keyNode, v)
	}
	b := string(v.Data) == "true"
	return &b, nil
}

func (d *decoder) typeError(name string, keyNode, v *unstable.Node) error {
	n := v
	if !hasRaw(v) {
		n = keyNode
	}
	return d.errorf(n, "%s must be %s, got %s", name, Keys[name], kindName(v.Kind))
}

func (d *decoder) unknown(n *unstable.Node, name string) error {
	msg := fmt.Sprintf("unknown key %s", escape.Quote(name))
	if s := suggestKey(name); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", escape.Quote(s))
	} else {
		var names []string
		for k := range Keys {
			names = append(names, k)
		}
		sort.Strings(names)
		msg += "; known keys: " + strings.Join(names, ", ")
	}
	return d.errorf(n, "%s", msg)
}

// suggestKey finds a known key the user probably meant (snake_case, a typo).
func suggestKey(name string) string {
	norm := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	if _, ok := Keys[norm]; ok {
		return norm
	}
	names := make([]string, 0, len(Keys))
	for k := range Keys {
		names = append(names, k)
	}
	return suggest.Closest(norm, names, 3)
}

func kindName(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "a string"
	case unstable.Bool:
		return "a boolean"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Array:
		return "an array"
	case unstable.InlineTable, unstable.Table:
		return "a table"
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return "a date or time"
	}
	return strings.ToLower(k.String())
}

func hasRaw(n *unstable.Node) bool { return n != nil && n.Raw.Length > 0 }

// where returns "path:line:col" of a node.
func (d *decoder) where(n *unstable.Node) string {
	line, col := d.pos(n)
	return fmt.Sprintf("%s:%d:%d", d.path, line, col)
}

func (d *decoder) pos(n *unstable.Node) (int, int) {
	if !hasRaw(n) {
		return 0, 0
	}
	return offsetPos(d.src, int(n.Raw.Offset))
}

func offsetPos(src []byte, off int) (int, int) {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line, col = line+1, 1
		} else if src[i]&0xC0 != 0x80 {
			col++
		}
	}
	return line, col
}

func (d *decoder) errorf(n *unstable.Node, format string, args ...any) error {
	line, col := d.pos(n)
	return &Error{Path: d.path, Line: line, Column: col, Msg: escape.Bound(fmt.Sprintf(format, args...))}
}

func (d *decoder) parseError(err error) error {
	var perr *unstable.ParserError
	if errors.As(err, &perr) && perr.Highlight != nil {
		if off, ok := d.offsetOf(perr.Highlight); ok {
			line, col := offsetPos(d.src, off)
			return &Error{Path: d.path, Line: line, Column: col, Msg: "invalid TOML: " + escape.Bound(perr.Message)}
		}
	}
	return &Error{Path: d.path, Msg: "invalid TOML: " + escape.Bound(err.Error())}
}

func (d *decoder) offsetOf(b []byte) (off int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return int(d.p.Range(b).Offset), true
}

func isQualifiedName(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' || r > 127) {
				return false
			}
		}
	}
	return true
}

// lineOf and colOf read back a "path:line:col" Where.
func lineOf(where string) int { l, _ := splitWhere(where); return l }
func colOf(where string) int  { _, c := splitWhere(where); return c }

func splitWhere(where string) (int, int) {
	var line, col int
	i := strings.LastIndexByte(where, ':')
	if i < 0 {
		return 0, 0
	}
	j := strings.LastIndexByte(where[:i], ':')
	if j < 0 {
		return 0, 0
	}
	fmt.Sscanf(where[j+1:i], "%d", &line)
	fmt.Sscanf(where[i+1:], "%d", &col)
	return line, col
}

// Validate checks what Parse cannot know alone: that every rule selector
// names a rule and every glob is well formed.
func (c *Config) Validate() error {
	check := func(key string, items []Item) error {
		for _, it := range items {
			if !Known(it.Value) {
				return fmt.Errorf("%s: %s: unknown rule selector %s (see `mcplint rules`)", it.Where, key, escape.Quote(it.Value))
			}
		}
		return nil
	}
	for _, l := range []struct {
		key   string
		items []Item
	}{{"select", c.Select}, {"extend-select", c.ExtendSelect}, {"ignore", c.Ignore}} {
		if err := check(l.key, l.items); err != nil {
			return err
		}
	}
	for _, p := range c.PerFileIgnores {
		if err := check("per-file-ignores", p.Codes); err != nil {
			return err
		}
		if !doublestar.ValidatePattern(p.Pattern.Value) {
			return fmt.Errorf("%s: per-file-ignores: invalid glob %s", p.Pattern.Where, escape.Quote(p.Pattern.Value))
		}
	}
	for _, it := range append(append([]Item(nil), c.Exclude...), c.ExtendExclude...) {
		if !doublestar.ValidatePattern(it.Value) {
			return fmt.Errorf("%s: invalid glob %s", it.Where, escape.Quote(it.Value))
		}
	}
	return nil
}

// Layer returns the file's rule selection as a Selection layer.
func (c *Config) Layer() Layer {
	return Layer{Select: c.Select, SelectSet: c.SelectSet, ExtendSelect: c.ExtendSelect, Ignore: c.Ignore}
}
