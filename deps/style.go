package deps

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The project's formatting settings, read for the fixes (package pystyle),
// found the way each tool finds its own, from the project's folder up to
// the scan root (never above it; a file that leads outside it through a
// symlink is not read):
//
//   - ruff: the closest folder with .ruff.toml, ruff.toml or a
//     pyproject.toml that has [tool.ruff] (in that order; parent folders'
//     files are then ignored, as ruff ignores them), and the files its
//     `extend` names, each overridden key by key by the file that extends
//     it. An `extend` that leads outside the scan root, or uses "~" or an
//     environment variable, is not followed (a note says so). Read:
//     line-length and [lint.isort] (or the older [isort]).
//   - black: [tool.black] line-length of the closest pyproject.toml (black's
//     project root, which a .git or .hg folder also ends).
//   - isort: the closest folder with .isort.cfg ([settings] or [isort]),
//     pyproject.toml ([tool.isort]), setup.cfg or tox.ini ([isort] or
//     [tool:isort]), or .editorconfig (max_line_length of [*], [*.py],
//     [**.py] or [*.{py}]), in that order, that holds isort settings; the
//     search stops at a folder with .git or .hg, as isort's does. isort
//     never merges files. Read: line_length (profile black means 88), the
//     known-* lists and the sort options, with isort's snake_case or ruff's
//     kebab-case keys.
//   - flake8: max-line-length of the [flake8] section of the closest
//     .flake8, setup.cfg or tox.ini that has one (up to a .git or .hg
//     folder).
//
// The line length is ruff's, else black's, else isort's, else flake8's
// (a lint limit, not a formatter's: it counts only where no formatter is
// configured); with none, pystyle.Style.WidthFor decides. The import order
// merges ruff's and isort's settings (a project may run either): lists add
// up, a true boolean wins. A malformed value is ignored (the fixes fall back
// to the defaults).

// values is one tool's settings: a key (kebab-case or snake_case) to a
// list, a boolean, a number or a string.
type values interface {
	strs(key string) []string
	flag(key string) bool
	num(key string) int
	str(key string) string
}

// tomlValues reads a chain of TOML tables, the first that has a key winning
// (a ruff config before the ones it extends).
type tomlValues []*ttable

func (c tomlValues) get(key string) *tval {
	for _, t := range c {
		if t == nil {
			continue
		}
		if v := t.get(key); v != nil {
			return v
		}
		if v := t.get(strings.ReplaceAll(key, "-", "_")); v != nil {
			return v
		}
	}
	return nil
}

func (c tomlValues) strs(key string) []string {
	v := c.get(key)
	if v == nil || v.kind() != unstable.Array {
		return nil
	}
	var out []string
	for _, e := range v.arr {
		if e.kind() == unstable.String {
			out = append(out, e.str)
		}
	}
	return out
}

func (c tomlValues) flag(key string) bool {
	v := c.get(key)
	return v != nil && v.kind() == unstable.Bool && v.str == "true"
}

func (c tomlValues) num(key string) int {
	v := c.get(key)
	if v == nil || v.kind() != unstable.Integer {
		return 0
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v.str, "_", ""))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

func (c tomlValues) str(key string) string {
	if v := c.get(key); v != nil && v.kind() == unstable.String {
		return v.str
	}
	return ""
}

// iniValues reads isort settings from an INI section: lists are comma- or
// line-separated, booleans as Python's strtobool reads them.
type iniValues map[string]string

func (m iniValues) get(key string) (string, bool) {
	v, ok := m[strings.ReplaceAll(key, "-", "_")]
	if !ok {
		v, ok = m[key]
	}
	return v, ok
}

func (m iniValues) strs(key string) []string {
	v, _ := m.get(key)
	var out []string
	for _, s := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (m iniValues) flag(key string) bool {
	v, _ := m.get(key)
	switch strings.ToLower(v) {
	case "1", "true", "t", "yes", "y", "on":
		return true
	}
	return false
}

func (m iniValues) num(key string) int {
	v, _ := m.get(key)
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

func (m iniValues) str(key string) string {
	v, _ := m.get(key)
	return v
}

// isortSettings merges one tool's isort settings into is.
func isortSettings(is *pystyle.Isort, v values) {
	is.KnownFirstParty = append(is.KnownFirstParty, v.strs("known-first-party")...)
	is.KnownThirdParty = append(is.KnownThirdParty, v.strs("known-third-party")...)
	is.KnownLocalFolder = append(is.KnownLocalFolder, v.strs("known-local-folder")...)
	is.ExtraStandardLibrary = append(is.ExtraStandardLibrary, v.strs("extra-standard-library")...)
	is.ForceToTop = append(is.ForceToTop, v.strs("force-to-top")...)
	is.ForceSortWithinSections = is.ForceSortWithinSections || v.flag("force-sort-within-sections")
	is.CaseSensitive = is.CaseSensitive || v.flag("case-sensitive")
	is.FromFirst = is.FromFirst || v.flag("from-first")
	if n := v.num("lines-between-types"); n > 0 && n < 10 {
		is.LinesBetweenTypes = n
	}
}

// maxConfigDepth bounds the folders searched upward (isort's bound).
const maxConfigDepth = 25

// maxExtendDepth bounds a chain of ruff `extend`s.
const maxExtendDepth = 8

// styleFinder finds the style files of one project.
type styleFinder struct {
	l      *loader
	root   string       // slash path the search stays in
	within *safeio.Root // root, resolved once for the search's checks
}

// readStyle sets the project's Style from the files found upward from dir.
func (l *loader) readStyle(dir string) {
	root := filepath.ToSlash(l.opts.Root)
	if root == "" {
		root = l.proj.Dir
	}
	s := &styleFinder{l: l, root: path.Clean(root), within: safeio.NewRoot(filepath.FromSlash(path.Clean(root)))}
	st := &l.proj.Style
	ruff := s.ruff(path.Clean(dir))
	var ruffIsort tomlValues
	for _, t := range ruff {
		ruffIsort = append(ruffIsort, t.table("lint", "isort"), t.table("isort"))
	}
	isortSettings(&st.Isort, ruffIsort)
	isort, isortLen := s.isort(path.Clean(dir))
	if isort != nil {
		isortSettings(&st.Isort, isort)
		if isort.str("profile") == "google" {
			st.Isort.ForceSortWithinSections = true
		}
	}
	for _, n := range []int{tomlValues(ruff).num("line-length"), s.black(path.Clean(dir)), isortLen, s.flake8(path.Clean(dir))} {
		if n > 0 {
			st.LineLength = n
			break
		}
	}
}

// folders returns dir and its parents up to the search root (at most
// maxConfigDepth), stopping after a folder for which stop returns true.
func (s *styleFinder) folders(dir string, stop func(d string) bool) []string {
	var out []string
	for d, n := dir, 0; n < maxConfigDepth; n++ {
		if s.within.Within(filepath.FromSlash(d)) != nil {
			break
		}
		out = append(out, d)
		if d == s.root || (stop != nil && stop(d)) {
			break
		}
		parent := path.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return out
}

// vcsRoot reports whether d holds a .git or .hg folder (or file: a git
// worktree), where isort and black stop looking.
func vcsRoot(d string) bool {
	for _, name := range []string{".git", ".hg"} {
		if _, err := os.Lstat(filepath.FromSlash(path.Join(d, name))); err == nil {
			return true
		}
	}
	return false
}

// read reads a style file of the search: nil when it is absent, unreadable,
// or outside the search root once symlinks are resolved. A file that does
// not exist is still asked of the reader, which fails: a caller that
// records reads (the engine's cache) then knows that creating it changes
// the result.
func (s *styleFinder) read(p string) []byte {
	var outside *safeio.OutsideError
	if err := s.within.Within(filepath.FromSlash(p)); errors.As(err, &outside) ||
		err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	src, err := s.l.opts.read(p)
	if err != nil {
		return nil
	}
	return src
}

// toml parses a TOML style file once (the project's pyproject.toml was
// parsed already as a dependency file).
func (s *styleFinder) toml(p string) *ttable {
	if t, ok := s.l.tomls[path.Clean(p)]; ok {
		return t
	}
	var t *ttable
	if src := s.read(p); src != nil {
		t, _ = parseTOML(p, src)
	}
	if s.l.tomls == nil {
		s.l.tomls = map[string]*ttable{}
	}
	s.l.tomls[path.Clean(p)] = t
	return t
}

// ruff returns the ruff configuration that applies to dir: its settings
// table, then those of the files it extends, in order.
func (s *styleFinder) ruff(dir string) []*ttable {
	for _, d := range s.folders(dir, nil) {
		for _, name := range []string{".ruff.toml", "ruff.toml", "pyproject.toml"} {
			p := path.Join(d, name)
			if cfg := ruffTable(name, s.toml(p)); cfg != nil {
				return s.extend(p, cfg)
			}
		}
	}
	return nil
}

// ruffTable returns the ruff settings of a parsed file: [tool.ruff] of a
// pyproject.toml, the whole of any other file.
func ruffTable(name string, t *ttable) *ttable {
	if t == nil {
		return nil
	}
	if name == "pyproject.toml" {
		return t.table("tool", "ruff")
	}
	return t
}

// extend follows the `extend` chain of the ruff config cfg read from p.
func (s *styleFinder) extend(p string, cfg *ttable) []*ttable {
	chain := []*ttable{cfg}
	seen := map[string]bool{path.Clean(p): true}
	for len(chain) <= maxExtendDepth {
		v := cfg.get("extend")
		if v == nil || v.kind() != unstable.String {
			break
		}
		at := func(format string, args ...any) {
			src := s.read(p)
			s.l.note(&File{Path: p, Src: src, Lines: pyast.NewLineIndex(src)}, int(v.start), format, args...)
		}
		ext := v.str
		if strings.HasPrefix(ext, "~") || strings.Contains(ext, "$") {
			at("ruff extend %q names the home folder or an environment variable: not followed", ext)
			break
		}
		next := ext
		if !path.IsAbs(filepath.ToSlash(ext)) {
			next = path.Join(path.Dir(p), filepath.ToSlash(ext))
		}
		next = path.Clean(filepath.ToSlash(next))
		err := s.within.Within(filepath.FromSlash(next))
		var outside *safeio.OutsideError
		switch {
		case errors.As(err, &outside):
			at("ruff extend %q leads outside the scanned tree: not read", ext)
			return chain
		case safeio.VCSDir(filepath.FromSlash(next)) != "":
			at("ruff extend %q is inside version-control internals: not read", ext)
			return chain
		case errors.Is(err, fs.ErrNotExist):
			at("ruff extend %q: no such file", ext)
			return chain
		case err != nil:
			at("ruff extend %q: not read: %v", ext, err)
			return chain
		case seen[next]:
			at("ruff extend %q makes a cycle: not followed", ext)
			return chain
		}
		seen[next] = true
		t := s.toml(next)
		if t == nil {
			at("ruff extend %q: cannot read or parse the file", ext)
			return chain
		}
		cfg = ruffTable(path.Base(next), t)
		if cfg == nil {
			return chain
		}
		chain = append(chain, cfg)
		p = next
	}
	return chain
}

// black returns [tool.black] line-length of the closest pyproject.toml.
func (s *styleFinder) black(dir string) int {
	for _, d := range s.folders(dir, vcsRoot) {
		if t := s.toml(path.Join(d, "pyproject.toml")); t != nil {
			return tomlValues{t.table("tool", "black")}.num("line-length")
		}
	}
	return 0
}

// isort returns the isort settings that apply to dir, and their line
// length.
func (s *styleFinder) isort(dir string) (values, int) {
	for _, d := range s.folders(dir, vcsRoot) {
		for _, name := range []string{".isort.cfg", "pyproject.toml", "setup.cfg", "tox.ini", ".editorconfig"} {
			p := path.Join(d, name)
			var v values
			switch name {
			case "pyproject.toml":
				if t := s.toml(p); t != nil {
					if it := t.table("tool", "isort"); it != nil && len(it.keys) > 0 {
						v = tomlValues{it}
					}
				}
			default:
				src := s.read(p)
				if src == nil {
					continue
				}
				var m iniValues
				switch name {
				case ".isort.cfg":
					m = iniSections(src, "settings", "isort")
				case ".editorconfig":
					m = iniSections(src, "*", "*.py", "**.py", "*.{py}")
					if n, ok := m["max_line_length"]; ok && n != "off" {
						m["line_length"] = n
					}
				default:
					m = iniSections(src, "isort", "tool:isort")
				}
				if len(m) > 0 {
					v = m
				}
			}
			if v == nil {
				continue
			}
			n := v.num("line-length")
			if n == 0 && v.str("profile") == "black" {
				n = pystyle.DefaultLineLength
			}
			return v, n
		}
	}
	return nil, 0
}

// flake8 returns max-line-length of the closest [flake8] section.
func (s *styleFinder) flake8(dir string) int {
	for _, d := range s.folders(dir, vcsRoot) {
		for _, name := range []string{".flake8", "setup.cfg", "tox.ini"} {
			src := s.read(path.Join(d, name))
			if src == nil {
				continue
			}
			if m := iniValues(iniSections(src, "flake8")); len(m) > 0 {
				return m.num("max-line-length")
			}
		}
	}
	return 0
}
