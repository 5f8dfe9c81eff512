package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Tracked is the set of files git tracks in the work trees of a run's roots:
// `git ls-files`, the index, which holds every committed file and every file
// added to it. A pull request's own files are tracked (the checkout of its
// merge commit or head commit has them in the index); what a CI step wrote
// into the work tree since (a cloud credentials file such as
// gha-creds-*.json, a .netrc or .pypirc, a rendered .env) is not, and is not
// read: mcplint quotes only what the repository's authors wrote.
//
// A nil *Tracked tracks everything (the option is off).
type Tracked struct {
	tops []string                   // the work trees' tops, real paths
	set  map[string]map[string]bool // top -> slash paths relative to it

	// cwd is the working directory when git was asked: a relative path
	// is made absolute against it (the run's paths are relative to it).
	cwd string

	mu      sync.Mutex
	dirs    map[string]string // folder (absolute) -> its real path
	allowed map[string]bool   // files given as roots (absolute)
	known   map[string]bool   // Has's answers (absolute paths)
	skipped []string          // display paths of files not read
}

// lstat is os.Lstat (a test counts the calls).
var lstat = os.Lstat

// ErrNoGit is the error (wrapped) when git cannot say which files it
// tracks: git is not installed, or a root is not in a work tree.
var ErrNoGit = errors.New("git cannot list the tracked files")

// GitTracked asks git which files it tracks in the work trees of roots (a
// root may be a file). git runs without a shell, with its output bounded,
// and reads nothing mcplint would not (no fsmonitor hook).
func GitTracked(roots []string) (*Tracked, error) {
	t := &Tracked{set: map[string]map[string]bool{}, dirs: map[string]string{}, allowed: map[string]bool{}, known: map[string]bool{}}
	t.cwd, _ = os.Getwd()
	for _, r := range roots {
		dir := filepath.FromSlash(r)
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			dir = filepath.Dir(dir)
		}
		out, err := Git(dir, "rev-parse", "--show-toplevel")
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNoGit, r, err)
		}
		top := filepath.Clean(strings.TrimRight(string(out), "\r\n"))
		if real, err := filepath.EvalSymlinks(top); err == nil {
			top = real
		}
		if t.set[top] != nil {
			continue
		}
		out, err = Git(top, "ls-files", "-z", "--cached", "--recurse-submodules")
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNoGit, r, err)
		}
		files := map[string]bool{}
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				files[string(f)] = true
			}
		}
		t.set[top] = files
		t.tops = append(t.tops, top)
	}
	// The deepest top first: a submodule's own work tree decides its files.
	sort.Slice(t.tops, func(i, j int) bool { return len(t.tops[i]) > len(t.tops[j]) })
	return t, nil
}

// Has tells whether git tracks the file at p (an OS path: as the walk
// found it, or as a dependency file names it). git tracks a symlink as
// such: a tracked symlink counts only when what it leads to is tracked too
// (a committed requirements-dev.txt -> requirements-ci.txt that a CI step
// writes is not the repository's content). The answer for a path is found
// once per run: the walk asks for every file, and the analysis again for
// each file it reads.
func (t *Tracked) Has(p string) bool {
	if t == nil {
		return true
	}
	return t.has(p, nil)
}

// hasEntry is Has for a file the walk found, whose directory entry says
// whether it is a symlink (no lstat is needed).
func (t *Tracked) hasEntry(p string, link bool) bool {
	if t == nil {
		return true
	}
	return t.has(p, &link)
}

func (t *Tracked) has(p string, link *bool) bool {
	abs := t.abs(p)
	if abs == "" {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.allowed[abs] {
		return true
	}
	if ok, found := t.known[abs]; found {
		return ok
	}
	ok := t.lookup(abs, link)
	t.known[abs] = ok
	return ok
}

// abs is p made absolute against the working directory t saw ("" when
// there is none).
func (t *Tracked) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if t.cwd == "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			return ""
		}
		return abs
	}
	return filepath.Join(t.cwd, p)
}

// lookup answers Has for abs; link, when known, says whether it is a
// symlink.
func (t *Tracked) lookup(abs string, link *bool) bool {
	if !t.inIndex(t.realDir(filepath.Dir(abs)), filepath.Base(abs)) {
		return false
	}
	isLink := false
	if link != nil {
		isLink = *link
	} else if li, err := lstat(abs); err == nil && li.Mode()&os.ModeSymlink != 0 {
		isLink = true
	}
	if isLink {
		real, err := filepath.EvalSymlinks(abs)
		return err == nil && t.inIndex(filepath.Dir(real), filepath.Base(real))
	}
	return true
}

// realDir is dir (absolute) with its symlinks resolved, remembered.
func (t *Tracked) realDir(dir string) string {
	real, ok := t.dirs[dir]
	if !ok {
		var err error
		if real, err = filepath.EvalSymlinks(dir); err != nil {
			real = dir
		}
		t.dirs[dir] = real
	}
	return real
}

// inIndex tells whether git tracks name in the real folder dir.
func (t *Tracked) inIndex(dir, name string) bool {
	full := filepath.Join(dir, name)
	for _, top := range t.tops {
		if rel, err := filepath.Rel(top, full); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return t.set[top][filepath.ToSlash(rel)]
		}
	}
	return false
}

// Allow makes the file at p (a slash or OS path) count as tracked: a file
// given as a root (the user named it), or one this run wrote (a fix's new
// module, which the analysis after the writes must see).
func (t *Tracked) Allow(p string) {
	if t == nil {
		return
	}
	if abs := t.abs(filepath.FromSlash(p)); abs != "" {
		t.mu.Lock()
		t.allowed[abs] = true
		t.mu.Unlock()
	}
}

// skip records a file the walk did not read because git does not track it.
func (t *Tracked) skip(displayPath string) {
	t.mu.Lock()
	t.skipped = append(t.skipped, displayPath)
	t.mu.Unlock()
}

// Skipped returns the files not read because git does not track them, in
// the walk's order (for --verbose).
func (t *Tracked) Skipped() []string {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.skipped...)
}
