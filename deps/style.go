package deps

import (
	"path"
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/pystyle"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The project's formatting settings, read for the fixes (package pystyle):
// line-length from [tool.ruff] (or ruff.toml / .ruff.toml next to the
// dependency files, which ruff prefers), [tool.black] and [tool.isort]
// (line_length; profile black means 88); the import order from
// [tool.ruff.lint.isort] (or the older [tool.ruff.isort], or [lint.isort] /
// [isort] of ruff.toml) and [tool.isort], with isort's snake_case or ruff's
// kebab-case keys. Both tools' settings are merged: lists add up, a true
// boolean wins. A malformed value is ignored (the fixes fall back to the
// defaults); ruff's `extend` and configuration in parent folders are not
// followed.

// styleFromPyproject reads the style tables of a parsed pyproject.toml.
func styleFromPyproject(st *pystyle.Style, root *ttable) {
	ruffLen := intAt(root, "tool", "ruff", "line-length")
	blackLen := intAt(root, "tool", "black", "line-length")
	isortLen := intAt(root, "tool", "isort", "line_length")
	if isortLen == 0 {
		isortLen = intAt(root, "tool", "isort", "line-length")
	}
	if isortLen == 0 && root.strAt("tool", "isort", "profile") == "black" {
		isortLen = pystyle.DefaultLineLength
	}
	for _, n := range []int{ruffLen, blackLen, isortLen} {
		if n > 0 && st.LineLength == 0 {
			st.LineLength = n
		}
	}
	isortTable(&st.Isort, root.table("tool", "ruff", "lint", "isort"))
	isortTable(&st.Isort, root.table("tool", "ruff", "isort"))
	isortTable(&st.Isort, root.table("tool", "isort"))
	if root.strAt("tool", "isort", "profile") == "google" {
		st.Isort.ForceSortWithinSections = true
	}
}

// styleFromRuffTOML reads ruff.toml / .ruff.toml, whose keys are those of
// [tool.ruff] at the top level. Its line length beats pyproject's.
func styleFromRuffTOML(st *pystyle.Style, root *ttable) {
	if n := intAt(root, "line-length"); n > 0 {
		st.LineLength = n
	}
	isortTable(&st.Isort, root.table("lint", "isort"))
	isortTable(&st.Isort, root.table("isort"))
}

// isortTable merges one isort settings table into is.
func isortTable(is *pystyle.Isort, t *ttable) {
	if t == nil {
		return
	}
	get := func(key string) *tval {
		if v := t.get(key); v != nil {
			return v
		}
		return t.get(strings.ReplaceAll(key, "-", "_"))
	}
	strs := func(key string) []string {
		v := get(key)
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
	flag := func(key string) bool {
		v := get(key)
		return v != nil && v.kind() == unstable.Bool && v.str == "true"
	}
	is.KnownFirstParty = append(is.KnownFirstParty, strs("known-first-party")...)
	is.KnownThirdParty = append(is.KnownThirdParty, strs("known-third-party")...)
	is.KnownLocalFolder = append(is.KnownLocalFolder, strs("known-local-folder")...)
	is.ExtraStandardLibrary = append(is.ExtraStandardLibrary, strs("extra-standard-library")...)
	is.ForceToTop = append(is.ForceToTop, strs("force-to-top")...)
	is.ForceSortWithinSections = is.ForceSortWithinSections || flag("force-sort-within-sections")
	is.CaseSensitive = is.CaseSensitive || flag("case-sensitive")
	is.FromFirst = is.FromFirst || flag("from-first")
	if v := get("lines-between-types"); v != nil && v.kind() == unstable.Integer {
		if n, err := strconv.Atoi(v.str); err == nil && n > 0 && n < 10 {
			is.LinesBetweenTypes = n
		}
	}
}

func intAt(t *ttable, keys ...string) int {
	v := t.get(keys...)
	if v == nil || v.kind() != unstable.Integer {
		return 0
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v.str, "_", ""))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

// readRuffTOML reads the project folder's ruff.toml or .ruff.toml, if any
// (.ruff.toml first, as ruff does).
func (l *loader) readRuffTOML(dir string) {
	for _, name := range []string{".ruff.toml", "ruff.toml"} {
		src, err := l.opts.read(path.Join(dir, name))
		if err != nil {
			continue
		}
		if root, err := parseTOML(name, src); err == nil {
			styleFromRuffTOML(&l.proj.Style, root)
		}
		return
	}
}
