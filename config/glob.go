package config

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Globs matches paths against glob patterns written relative to a
// directory (the configuration file's), with doublestar syntax ("**" spans
// folders). A pattern without a slash matches a file or folder name at any
// depth ("generated", "*_pb2.py"); a pattern with one is anchored at the
// directory ("src/legacy/**", "tests/*.py"). A path matches when it or any
// folder above it does, so "build" excludes everything below build/.
type Globs struct {
	dir      string // absolute, slash-separated
	patterns []string
}

// NewGlobs compiles patterns relative to dir ("" for the working directory).
func NewGlobs(dir string, patterns []string) *Globs {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	g := &Globs{dir: filepath.ToSlash(abs)}
	for _, p := range patterns {
		p = strings.TrimPrefix(strings.TrimSuffix(strings.TrimSpace(p), "/"), "./")
		if p != "" {
			g.patterns = append(g.patterns, p)
		}
	}
	return g
}

// Empty tells whether there is nothing to match.
func (g *Globs) Empty() bool { return g == nil || len(g.patterns) == 0 }

// Match tells whether p (slash-separated, relative to the working directory
// or absolute) matches a pattern, itself or through a folder above it.
func (g *Globs) Match(p string) bool {
	if g.Empty() {
		return false
	}
	return g.matchRel(g.rel(p))
}

// matchRel is Match for a path already relative to the globs' directory.
func (g *Globs) matchRel(rel string) bool {
	for cur := rel; cur != "" && cur != "." && cur != "/"; cur = path.Dir(cur) {
		base := path.Base(cur)
		for _, pat := range g.patterns {
			if strings.Contains(pat, "/") {
				if !strings.HasPrefix(cur, "../") && matches(strings.TrimPrefix(pat, "/"), cur) {
					return true
				}
			} else if matches(pat, base) {
				return true
			}
		}
		if !strings.Contains(cur, "/") {
			break
		}
	}
	return false
}

func matches(pattern, name string) bool {
	ok, err := doublestar.Match(pattern, name)
	return err == nil && ok
}

// rel makes p relative to the globs' directory.
func (g *Globs) rel(p string) string {
	abs := p
	if !filepath.IsAbs(filepath.FromSlash(p)) {
		if a, err := filepath.Abs(filepath.FromSlash(p)); err == nil {
			abs = a
		}
	}
	r, err := filepath.Rel(filepath.FromSlash(g.dir), abs)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}
