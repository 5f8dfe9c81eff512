// Package workspace finds the files mcplint reads under the scan roots:
// Python sources and Python dependency files. It skips what a user never
// wants scanned (VCS folders, virtual environments, caches, node_modules,
// hidden folders), what .gitignore files ignore (unless told not to; a lock
// file in a folder walked is read even when ignored: uv, Poetry, PDM and
// Pipenv install from it whether git tracks it or not) and what the caller
// excludes, and never follows directory symlinks, so a
// symlink loop cannot trap it. A symlink to a file is read only to what
// mcplint would have read by its own name (symlink.go): inside its scan root,
// outside version-control folders, a file of the link's kind. A root given
// explicitly is always visited; when it is a symlink, it must lead inside
// the working directory (or, for a link outside it, the link's folder).
// With Options.Tracked, only the files git tracks are visited (tracked.go).
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/safeio"
)

// Kind of a file found.
type Kind int

const (
	Python Kind = iota
	Dependency
)

// File is one file to read. Path is slash-separated and as the user would
// write it: relative to the working directory when under it.
type File struct {
	Path string
	Kind Kind
}

// Options controls the walk.
type Options struct {
	// Exclude returns true for paths (slash-separated, as in File.Path) that
	// must not be visited; directories are skipped whole.
	Exclude func(path string, isDir bool) bool
	// IncludeHidden visits hidden directories other than VCS folders.
	IncludeHidden bool
	// NoGitignore turns off .gitignore handling (see gitignore.go).
	NoGitignore bool
	// Tracked, when set, visits only the files git tracks (tracked.go): a
	// file a CI step wrote into the work tree (a cloud credentials JSON, a
	// .netrc, a rendered .env) is not the repository's and is not read.
	// Files given as roots are visited whether tracked or not.
	Tracked *Tracked
}

// PathError is an error about one path (unreadable folder, missing root).
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *PathError) Unwrap() error { return e.Err }

// ErrSymlinkOutside is the error (in a *PathError) for a symlink under a
// scan root that leads outside it: the file must not be read at all.
var ErrSymlinkOutside = errors.New("a symlink to a file outside the scanned tree: not read")

// skippedDirs are never descended into.
var skippedDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "__pycache__": true, "node_modules": true,
	".venv": true, "venv": true, ".tox": true, ".nox": true, ".mypy_cache": true,
	".pytest_cache": true, ".ruff_cache": true, "site-packages": true, ".eggs": true,
}

// Walk returns the files under roots in a stable order (sorted by path) and
// the errors met on the way. A root may be a file.
func Walk(roots []string, opts Options) ([]File, []error) {
	var files []File
	var errs []error
	seen := map[string]bool{}
	add := func(p string, kind Kind) {
		if !seen[p] {
			seen[p] = true
			files = append(files, File{Path: p, Kind: kind})
		}
	}
	for _, root := range roots {
		root = DisplayPath(root)
		info, err := os.Stat(root)
		if err != nil {
			errs = append(errs, &PathError{Path: root, Err: err})
			continue
		}
		if li, err := os.Lstat(filepath.FromSlash(root)); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			if err := rootRefusal(filepath.FromSlash(root), info.IsDir()); err != nil {
				errs = append(errs, &PathError{Path: root, Err: err})
				continue
			}
		}
		if !info.IsDir() {
			if k, ok := Classify(root); ok {
				opts.Tracked.Allow(root)
				add(root, k)
			} else {
				errs = append(errs, &PathError{Path: root, Err: errors.New("not a Python or dependency file")})
			}
			continue
		}
		absRoot, err := filepath.Abs(filepath.FromSlash(root))
		if err != nil {
			errs = append(errs, &PathError{Path: root, Err: err})
			continue
		}
		absRoot = filepath.ToSlash(absRoot)
		var ig *ignorer
		if !opts.NoGitignore {
			ig = newIgnorer(absRoot)
			ig.load(absRoot)
		}
		abs := func(p string) string {
			rel, err := filepath.Rel(filepath.FromSlash(root), p)
			if err != nil || rel == "." {
				return absRoot
			}
			return absRoot + "/" + filepath.ToSlash(rel)
		}
		// A root that is a symlink to a directory is walked through the
		// link: WalkDir lstat()s its root, and would visit the link as one
		// entry and never descend (a silent "All checks passed!"). A
		// trailing separator makes the system resolve it; the paths walked
		// still start with the root as given.
		walkRoot := filepath.FromSlash(root)
		if li, err := os.Lstat(walkRoot); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			walkRoot += string(filepath.Separator)
		}
		var tree *safeio.Root // the root resolved, on the first symlink to a file
		err = filepath.WalkDir(walkRoot, func(p string, d fs.DirEntry, err error) error {
			sp := strings.TrimSuffix(filepath.ToSlash(p), "/") // the symlinked root's trailing "/"
			if sp == "" {
				sp = "/"
			}
			if err != nil {
				errs = append(errs, &PathError{Path: sp, Err: err})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if sp == root {
					return nil
				}
				if skipDirName(d.Name(), opts) || opts.Exclude != nil && opts.Exclude(sp, true) {
					return fs.SkipDir
				}
				var dir *os.Root // the folder, open: a lookup in it costs no walk of its path
				if ig != nil {
					a := abs(p)
					if ig.ignored(a, true) {
						return fs.SkipDir
					}
					ig.load(a)
					dir = ig.handle(a)
				}
				if isVenv(p, dir) {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// A symlink to a file is read; one to a directory is not
				// followed; a dangling one is an error, never a silent skip.
				st, err := os.Stat(p)
				if err != nil {
					if _, ok := Classify(sp); ok {
						errs = append(errs, &PathError{Path: sp, Err: err})
					}
					return nil
				}
				if st.IsDir() {
					return nil
				}
			}
			k, ok := Classify(sp)
			if !ok || (opts.Exclude != nil && opts.Exclude(sp, false)) || ig != nil && !deps.IsLockFile(d.Name()) && ig.ignored(abs(p), false) {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// A symlink in a repository must not make mcplint read (and
				// quote) a file outside it, such as /proc/self/environ, or
				// one inside it that is not a file of the link's kind, such
				// as .git/config.
				if tree == nil {
					tree = safeio.NewRoot(filepath.FromSlash(root))
				}
				if err := symlinkRefusal(p, tree); err != nil {
					errs = append(errs, &PathError{Path: sp, Err: err})
					return nil
				}
			}
			if !opts.Tracked.hasEntry(p, d.Type()&fs.ModeSymlink != 0) {
				opts.Tracked.skip(sp)
				return nil
			}
			add(sp, k)
			return nil
		})
		if err != nil {
			errs = append(errs, &PathError{Path: root, Err: err})
		}
		if ig != nil {
			ig.close()
			errs = append(errs, ig.errs...)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, errs
}

// rootRefusal checks a root given explicitly that is a symlink: it must
// lead inside rootTree, and a file root is followed only as a file the walk
// would follow.
func rootRefusal(root string, isDir bool) error {
	tree := rootTree(root)
	if isDir {
		if err := safeio.Within(tree, root); err != nil {
			return errors.New("a symlink to a folder outside the working tree: not followed (give the folder itself)")
		}
		return nil
	}
	return symlinkRefusal(root, safeio.NewRoot(tree))
}

// skipDirName reports whether a folder is skipped by its name alone.
func skipDirName(name string, opts Options) bool {
	if skippedDirs[name] {
		return true
	}
	return strings.HasPrefix(name, ".") && !opts.IncludeHidden && name != "." && name != ".."
}

// isVenv reports whether folder p is a virtual environment, under any name
// (it holds a pyvenv.cfg). dir is p open, when the walk has it: in a chain
// of folders thousands deep, a lookup by path walks the whole path again.
func isVenv(p string, dir *os.Root) bool {
	if dir != nil {
		_, err := dir.Stat("pyvenv.cfg")
		return err == nil
	}
	_, err := os.Stat(filepath.Join(p, "pyvenv.cfg"))
	return err == nil
}

// Classify tells whether a path is a file mcplint reads.
func Classify(p string) (Kind, bool) {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasSuffix(base, ".py") {
		return Python, true
	}
	if deps.IsDependencyPath(p) {
		return Dependency, true
	}
	return 0, false
}

// DisplayPath cleans p and makes it relative to the working directory when
// it is under it, with forward slashes.
func DisplayPath(p string) string {
	if filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			return DisplayPathFrom(wd, p)
		}
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// DisplayPathFrom is DisplayPath with wd as the working folder (for a
// caller that asks of many paths).
func DisplayPathFrom(wd, p string) string {
	p = filepath.Clean(p)
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
	}
	return filepath.ToSlash(p)
}

// Dir returns the slash directory of a slash path ("." for a bare name).
func Dir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	if i == 0 {
		return "/"
	}
	return p[:i]
}
