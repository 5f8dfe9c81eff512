package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mcplint/mcplint/internal/safeio"
)

// This file implements .gitignore matching as git does it (gitignore(5)):
// one file per folder, patterns relative to that folder, the last matching
// pattern of a file deciding, a deeper file overriding a shallower one,
// "!" re-including, a trailing "/" matching folders only, a pattern with a
// slash anchored to its folder and one without matching a name at any depth,
// "**" spanning folders. Patterns are matched with doublestar, after escaping
// the braces git does not know. (github.com/sabhiram/go-gitignore was the
// first choice; it does not anchor "doc/frotz" to its folder and has no
// notion of one file overriding another, so it is not used.)
//
// Above the scan root, the .gitignore files of the folders up to the
// repository's top (the folder with .git) apply too, and so does
// .git/info/exclude.

type ignorePattern struct {
	glob    string
	negate  bool
	dirOnly bool
}

type ignoreFile struct {
	dir      string // absolute, slash-separated
	patterns []ignorePattern
}

// parseIgnore reads the patterns of one .gitignore.
func parseIgnore(dir string, src []byte) *ignoreFile {
	f := &ignoreFile{dir: dir}
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSuffix(line, "\r")
		// Trailing spaces are ignored unless escaped.
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
			line = line[:len(line)-1]
		}
		if line == "" || line[0] == '#' {
			continue
		}
		var p ignorePattern
		if line[0] == '!' {
			p.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		line = strings.NewReplacer("{", `\{`, "}", `\}`).Replace(line)
		if !anchored {
			line = "**/" + line
		}
		if !doublestar.ValidatePattern(line) {
			continue // git ignores what it cannot parse
		}
		p.glob = line
		f.patterns = append(f.patterns, p)
	}
	return f
}

// match returns whether the file decides for rel (a path relative to its
// folder), and if so whether rel is ignored.
func (f *ignoreFile) match(rel string, isDir bool) (decided, ignored bool) {
	for i := len(f.patterns) - 1; i >= 0; i-- {
		p := f.patterns[i]
		if p.dirOnly && !isDir {
			continue
		}
		if ok, _ := doublestar.Match(p.glob, rel); ok {
			return true, !p.negate
		}
	}
	return false, false
}

// ignorer holds the .gitignore files met on a walk.
type ignorer struct {
	files map[string]*ignoreFile // folder (absolute, slash) -> its file
	top   string                 // the highest folder whose files apply
	// errs are ignore files that exist but cannot be read (a named pipe,
	// over the size limit): reported, since the walk then visits more.
	errs []error
}

// newIgnorer prepares matching for a walk of absRoot: it loads the ignore
// files of the folders above it, up to the repository's top.
func newIgnorer(absRoot string) *ignorer {
	ig := &ignorer{files: map[string]*ignoreFile{}, top: absRoot}
	for dir := absRoot; ; dir = path.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(filepath.FromSlash(dir), ".git")); err == nil {
			ig.top = dir
			if src, err := safeio.ReadFile(filepath.Join(filepath.FromSlash(dir), ".git", "info", "exclude"), safeio.Config); err == nil {
				// Lowest precedence: kept under a key no folder has.
				f := parseIgnore(dir, src)
				ig.files[dir+"/.git/info"] = f
			}
			break
		}
		if path.Dir(dir) == dir {
			break
		}
	}
	if ig.top != absRoot {
		for dir := path.Dir(absRoot); ; dir = path.Dir(dir) {
			ig.load(dir)
			if dir == ig.top || path.Dir(dir) == dir {
				break
			}
		}
	}
	return ig
}

// load reads dir's .gitignore, if it has one.
func (ig *ignorer) load(dir string) {
	if _, ok := ig.files[dir]; ok {
		return
	}
	name := filepath.Join(filepath.FromSlash(dir), ".gitignore")
	src, err := safeio.ReadFile(name, safeio.Config)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			ig.errs = append(ig.errs, &PathError{Path: DisplayPath(name), Err: unwrap(err)})
		}
		ig.files[dir] = nil
		return
	}
	ig.files[dir] = parseIgnore(dir, src)
}

// ignored tells whether abs (absolute, slash) is ignored: the deepest
// ignore file with a matching pattern decides, then .git/info/exclude.
func (ig *ignorer) ignored(abs string, isDir bool) bool {
	for dir := path.Dir(abs); ; dir = path.Dir(dir) {
		if f := ig.files[dir]; f != nil {
			if decided, ignored := f.match(strings.TrimPrefix(abs, dir+"/"), isDir); decided {
				return ignored
			}
		}
		if dir == ig.top || path.Dir(dir) == dir {
			break
		}
	}
	if f := ig.files[ig.top+"/.git/info"]; f != nil {
		_, ignored := f.match(strings.TrimPrefix(abs, ig.top+"/"), isDir)
		return ignored
	}
	return false
}

// unwrap drops the *os.PathError around err: PathError names the path.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
