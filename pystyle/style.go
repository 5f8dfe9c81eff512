// Package pystyle holds a Python project's code style as far as mcplint's
// fixes need it: the line length black or ruff format to, and the import
// order isort or ruff's I rules enforce (sections, known first-party
// modules, sorting within a section). Package deps reads it from the
// ruff, black and isort configuration files that apply to the project (as
// each tool finds them, within the scan root); the fixes use it to place an
// inserted import where isort would and to wrap generated code.
//
// Only what one inserted import line needs is implemented: the section of a
// module and isort's sort key within a section (profile black, which sorts
// like isort's defaults), force-sort-within-sections, case-sensitive,
// force-to-top, from-first and lines-between-types.
package pystyle

import (
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/pyast"
)

// DefaultLineLength is black's and ruff's default line length.
const DefaultLineLength = 88

// Style is a project's formatting settings.
type Style struct {
	// LineLength is the formatter's limit ([tool.ruff] line-length,
	// [tool.black] line-length); 0 means DefaultLineLength.
	LineLength int
	Isort      Isort
}

// Isort is the import-sorting configuration ([tool.ruff.lint.isort],
// [tool.isort]), with isort's profile black defaults when zero.
type Isort struct {
	KnownFirstParty      []string
	KnownThirdParty      []string
	KnownLocalFolder     []string
	ExtraStandardLibrary []string
	// ForceSortWithinSections sorts `import x` and `from x import y`
	// together by module instead of all straight imports first.
	ForceSortWithinSections bool
	CaseSensitive           bool
	FromFirst               bool
	ForceToTop              []string
	LinesBetweenTypes       int
}

// Width returns the line length to wrap to.
func (s Style) Width() int {
	if s.LineLength > 0 {
		return s.LineLength
	}
	return DefaultLineLength
}

// WidthFor returns the line length to wrap code added to module m to: the
// configured one, else the longer of DefaultLineLength and the longest line
// of m's own code (a file whose code runs past 88 is not kept to black's
// default, and wrapping the fix's line there would set it apart from its
// neighbours). Lines that hold only comments and string literals (a long
// docstring, a comment with a URL) do not count: black leaves those long in
// a file it formats to 88.
func (s Style) WidthFor(m *pyast.Module) int {
	if s.LineLength > 0 {
		return s.LineLength
	}
	w := DefaultLineLength
	src := m.Src
	type line struct{ start, end, width int }
	var long []line
	for off := 0; off < len(src); {
		eol := LineEnd(src, off)
		if n := utf8.RuneCount(src[off:eol]); n > w {
			long = append(long, line{off, eol, n})
		}
		if eol >= len(src) {
			break
		}
		off = eol + len(BreakAt(src, eol))
	}
	if len(long) == 0 {
		return w
	}
	var lits [][2]int // string and comment spans, in document order, not nested
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if k := n.Kind(); k == "string" || k == "comment" {
			lits = append(lits, [2]int{int(n.StartByte()), int(n.EndByte())})
			return false
		}
		return true
	})
	inLit := func(off int) bool {
		i := sort.Search(len(lits), func(i int) bool { return lits[i][1] > off })
		return i < len(lits) && lits[i][0] <= off
	}
	for _, l := range long {
		off, eol, n := l.start, l.end, l.width
		if n > w {
			for i := off; i < eol; i++ {
				if c := src[i]; c != ' ' && c != '\t' && !inLit(i) {
					w = n // a line with code
					break
				}
			}
		}
	}
	return w
}

// Section is an isort import section, in output order.
type Section int

const (
	Future Section = iota
	StandardLibrary
	ThirdParty
	FirstParty
	LocalFolder
)

// Import is one import statement as the sort sees it.
type Import struct {
	Module string // the dotted module: "os.path" for import os.path and from os.path import x
	From   bool   // from ... import
	Level  int    // leading dots of a relative from-import
}

// SectionOf places an import the way isort and ruff do: relative imports are
// local, __future__ is its own section, configured known-* lists come next,
// then the standard library, then the project's own top-level modules
// (firstParty; nil for none), and everything else is third party.
func (s Style) SectionOf(imp Import, firstParty func(top string) bool) Section {
	if imp.Level > 0 {
		return LocalFolder
	}
	mod := imp.Module
	top, _, _ := strings.Cut(mod, ".")
	if top == "__future__" {
		return Future
	}
	switch {
	case matchesKnown(s.Isort.KnownLocalFolder, mod):
		return LocalFolder
	case matchesKnown(s.Isort.KnownFirstParty, mod):
		return FirstParty
	case matchesKnown(s.Isort.KnownThirdParty, mod):
		return ThirdParty
	case matchesKnown(s.Isort.ExtraStandardLibrary, mod):
		return StandardLibrary
	case stdlibNames[top]:
		return StandardLibrary
	case firstParty != nil && firstParty(top):
		return FirstParty
	}
	return ThirdParty
}

// matchesKnown reports whether a module or one of its parents matches a
// known-* entry (a module name or a glob such as "app*").
func matchesKnown(patterns []string, mod string) bool {
	for _, p := range patterns {
		for m := mod; m != ""; {
			if ok, _ := path.Match(p, m); ok || p == m {
				return true
			}
			i := strings.LastIndexByte(m, '.')
			if i < 0 {
				break
			}
			m = m[:i]
		}
	}
	return false
}

// Less reports whether import a sorts before import b within one section.
func (s Style) Less(a, b Import) bool {
	ta, tb := s.forceTop(a.Module), s.forceTop(b.Module)
	if ta != tb {
		return ta
	}
	if !s.Isort.ForceSortWithinSections && a.From != b.From {
		return a.From == s.Isort.FromFirst
	}
	if c := NaturalCompare(s.moduleKey(a), s.moduleKey(b)); c != 0 {
		return c < 0
	}
	if c := NaturalCompare(a.Module, b.Module); c != 0 {
		return c < 0 // equal ignoring case: ruff then orders by the name as written
	}
	return !a.From && b.From // import x before from x import y
}

func (s Style) forceTop(mod string) bool {
	for _, t := range s.Isort.ForceToTop {
		if t == mod {
			return true
		}
	}
	return false
}

func (s Style) moduleKey(imp Import) string {
	k := strings.Repeat(".", imp.Level) + imp.Module
	if !s.Isort.CaseSensitive {
		k = strings.ToLower(k)
	}
	return k
}

// NaturalCompare compares strings with runs of digits compared as numbers
// (isort's and ruff's "natural" order: py2 < py10).
func NaturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				if len(na) < len(nb) {
					return -1
				}
				return 1
			}
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			continue
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
