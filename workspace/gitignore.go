package workspace

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcplint/mcplint/internal/safeio"
)

// This file implements .gitignore matching as git does it (gitignore(5),
// dir.c and wildmatch.c): one file per folder, patterns relative to that
// folder, the last matching pattern of a file deciding, a deeper file
// overriding a shallower one, then .git/info/exclude, then core.excludesFile
// (by default $XDG_CONFIG_HOME/git/ignore); "!" re-includes, a trailing "/"
// matches folders only, a pattern with a slash anywhere but at its end is
// anchored to its folder and one without matches a name at any depth, "**"
// spans folders, "\" escapes the next byte, trailing spaces are dropped
// unless escaped. A folder that is ignored is not entered, so nothing under
// it is re-included (as in git). Case is significant (core.ignoreCase is
// not read), a .gitignore that is a symlink is not read (git opens it with
// O_NOFOLLOW) and [include] sections of git config files are not followed.
//
// Each file is compiled once (ignorematch.go), and the walk keeps, for the
// folder it is in, the matcher state each applicable file has reached on
// the folder's path, so a path costs a few look-ups per byte of its own
// name, whatever the number of patterns and the depth.
//
// Above the scan root, the .gitignore files of the folders up to the
// repository's top (the folder with .git) apply too. The files under .git
// that are read (info/exclude, config for core.excludesFile, and the
// gitdir and commondir pointers of a worktree) are mcplint's own business:
// only their patterns and that one key are used, nothing of them is quoted.

// ignorePattern is what a decision needs of a pattern.
type ignorePattern struct {
	line   int // 1-based line in its file
	negate bool
}

// ignoreFile is one compiled ignore file.
type ignoreFile struct {
	dir     string // absolute, slash-separated: the folder patterns are relative to
	src     string // the file read (for tests)
	pats    []ignorePattern
	baseLit map[string]best // literal basename patterns
	baseDFA *dfa            // the other patterns without a slash
	pathLit *litNode        // literal patterns with a slash
	pathDFA *dfa            // the other patterns with a slash
}

// parseIgnore compiles the patterns of one ignore file whose patterns are
// relative to dir, as git's add_patterns_from_buffer and parse_path_pattern
// read them.
func parseIgnore(dir string, src []byte) *ignoreFile {
	f := &ignoreFile{dir: dir}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	var base, pth nfa
	for n, line := range strings.Split(string(src), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimSuffix(line, "\r")
		line = trimTrailingSpaces(line)
		p := ignorePattern{line: n + 1}
		if strings.HasPrefix(line, "!") {
			p.negate = true
			line = line[1:]
		}
		dirOnly := false
		if strings.HasSuffix(line, "/") {
			dirOnly = true
			line = line[:len(line)-1]
		}
		if line == "" {
			continue // matches nothing
		}
		idx := int32(len(f.pats))
		f.pats = append(f.pats, p)
		lit := strings.IndexAny(line, `*?[\`)
		if lit < 0 {
			lit = len(line)
		}
		if !strings.Contains(line, "/") {
			if lit == len(line) {
				if f.baseLit == nil {
					f.baseLit = map[string]best{}
				}
				b, ok := f.baseLit[line]
				if !ok {
					b = noMatch
				}
				b.add(idx, dirOnly)
				f.baseLit[line] = b
			} else {
				base.compileGlob(line, 0, false, idx, dirOnly)
			}
			continue
		}
		if line[0] == '/' {
			line = line[1:]
			lit--
		}
		if lit == len(line) {
			if f.pathLit == nil {
				f.pathLit = &litNode{acc: noMatch}
			}
			f.pathLit.insert(line, idx, dirOnly)
		} else {
			pth.compileGlob(line, lit, true, idx, dirOnly)
		}
	}
	if len(base.starts) > 0 {
		f.baseDFA = newDFA(&base)
	}
	if len(pth.starts) > 0 {
		f.pathDFA = newDFA(&pth)
	}
	return f
}

// trimTrailingSpaces drops the trailing spaces of a line, but not one
// escaped with a backslash (git's trim_trailing_spaces; tabs stay).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// layer is one ignore file as seen from a folder at or under its own: the
// trie node and DFA state its path patterns reached on the folder's path
// relative to the file's folder (nil when none of them can match below).
type layer struct {
	f     *ignoreFile
	node  *litNode
	st    *dstate
	order int // precedence: a deeper file's is higher
}

func newLayer(f *ignoreFile, order int) layer {
	l := layer{f: f, node: f.pathLit, order: order}
	if f.pathDFA != nil {
		l.st = f.pathDFA.start
	}
	return l
}

// pathLive tells whether the file's path patterns can still match below.
func (l layer) pathLive() bool { return l.node != nil || l.st != nil }

// enter is the layer for the sub-folder name; ok is false when the file
// can no longer decide anything there.
func (l layer) enter(name string) (layer, bool) {
	l.node = l.node.child(name)
	if l.st != nil {
		d := l.f.pathDFA
		st := d.step(d.run(l.st, name), '/')
		if st == d.dead {
			st = nil
		}
		l.st = st
	}
	return l, l.pathLive() || l.f.baseLit != nil || l.f.baseDFA != nil
}

// layerSet is the files that apply in a folder: the ones whose path
// patterns may still match, and the ones left with only basename patterns,
// which never change on the way down and so are shared, as a list, with
// every folder below (a .gitignore in each of 2,000 nested folders costs a
// list node a folder, not a copy of 2,000 layers).
type layerSet struct {
	live  []layer
	inert *inertNode
}

type inertNode struct {
	l    layer
	next *inertNode
}

func (s layerSet) add(l layer) layerSet {
	if l.pathLive() {
		s.live = append(s.live[:len(s.live):len(s.live)], l)
	} else {
		s.inert = &inertNode{l, s.inert}
	}
	return s
}

// enter is the set as seen from the sub-folder name.
func (s layerSet) enter(name string) layerSet {
	out := layerSet{inert: s.inert}
	if len(s.live) > 0 {
		out.live = make([]layer, 0, len(s.live))
	}
	for _, l := range s.live {
		if nl, ok := l.enter(name); ok {
			out = out.add(nl)
		}
	}
	return out
}

// decide returns the layer and pattern index deciding for the entry name:
// the highest-precedence file with a matching pattern, its last one.
func (s layerSet) decide(name string, isDir bool) (f *ignoreFile, idx int32) {
	order := -1
	try := func(l layer) {
		if l.order > order {
			if i := l.match(name).pick(isDir); i >= 0 {
				f, idx, order = l.f, i, l.order
			}
		}
	}
	for i := len(s.live) - 1; i >= 0; i-- {
		try(s.live[i])
	}
	for n := s.inert; n != nil; n = n.next {
		try(n.l)
	}
	return f, idx
}

// match is the best pattern of the file for the entry name of the folder.
func (l layer) match(name string) best {
	f := l.f
	b := noMatch
	if f.baseLit != nil {
		if m, ok := f.baseLit[name]; ok {
			b = m
		}
	}
	if f.baseDFA != nil {
		b = b.merge(f.baseDFA.run(f.baseDFA.start, name).acc)
	}
	if n := l.node.child(name); n != nil {
		b = b.merge(n.acc)
	}
	if l.st != nil {
		b = b.merge(l.f.pathDFA.run(l.st, name).acc)
	}
	return b
}

// dirState is the layers that apply in one folder, lowest precedence first.
type dirState struct {
	dir    string
	layers layerSet
	loaded bool     // the folder's own .gitignore is among layers
	handle *os.Root // the folder, open (nil if it could not be)
}

func (st *dirState) close() {
	if st.handle != nil {
		st.handle.Close()
		st.handle = nil
	}
}

// ignorer holds the ignore files met on a walk and the states of the
// folders from the scan root down to the one being walked.
type ignorer struct {
	root  string      // the scan root (absolute, slash)
	top   string      // the highest folder whose files apply
	base  layerSet    // the files above root, as seen from root
	order int         // the precedence the next file gets
	stack []*dirState // root, then each folder down to the current one
	// errs are ignore files that exist but cannot be read (a named pipe,
	// over the size limit): reported, since the walk then visits more.
	errs []error
}

// newIgnorer prepares matching for a walk of absRoot: it loads the ignore
// files of the folders above it, up to the repository's top, and the
// repository's exclude files.
func newIgnorer(absRoot string) *ignorer {
	ig := &ignorer{root: absRoot, top: absRoot}
	top := RepoTop(filepath.FromSlash(absRoot))
	if top == "" {
		return ig
	}
	ig.top = filepath.ToSlash(top)
	gitPath := filepath.Join(top, ".git")
	// Lowest precedence first: core.excludesFile, then info/exclude.
	common := commonDir(gitPath)
	if name := excludesFile(common, ig.top); name != "" {
		if f := ig.read(name, ig.top); f != nil {
			ig.base = ig.base.add(ig.newLayer(f))
		}
	}
	if f := ig.read(filepath.Join(common, "info", "exclude"), ig.top); f != nil {
		ig.base = ig.base.add(ig.newLayer(f))
	}
	dir := ig.top
	for {
		if dir != absRoot {
			if f := ig.readGitignore(dir, nil); f != nil {
				ig.base = ig.base.add(ig.newLayer(f))
			}
		}
		if dir == absRoot {
			break
		}
		rest := strings.TrimPrefix(absRoot[len(dir):], "/")
		name, _, _ := strings.Cut(rest, "/")
		dir = path.Join(dir, name)
		ig.base = ig.base.enter(name)
	}
	return ig
}

// read compiles one ignore file whose patterns are relative to dir; a file
// that does not exist is none.
func (ig *ignorer) read(name, dir string) *ignoreFile {
	src, err := safeio.ReadFile(name, safeio.Config)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
			ig.errs = append(ig.errs, &PathError{Path: DisplayPath(name), Err: unwrap(err)})
		}
		return nil
	}
	f := parseIgnore(dir, src)
	f.src = name
	return f
}

// readGitignore compiles the .gitignore of folder dir, whose handle (nil
// when none could be opened) is h. A .gitignore that is a symlink is not
// read, as git opens it with O_NOFOLLOW. Looking it up through the
// folder's handle costs the same at any depth; through its path, the
// system walks every folder of the path again.
func (ig *ignorer) readGitignore(dir string, h *os.Root) *ignoreFile {
	name := filepath.FromSlash(dir + "/.gitignore")
	var fi fs.FileInfo
	var err error
	if h != nil {
		fi, err = h.Lstat(".gitignore")
	} else {
		fi, err = os.Lstat(name)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
			ig.errs = append(ig.errs, &PathError{Path: DisplayPath(name), Err: unwrap(err)})
		}
		return nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil
	}
	return ig.read(name, dir)
}

// newLayer is f's layer, above every file met before it.
func (ig *ignorer) newLayer(f *ignoreFile) layer {
	ig.order++
	return newLayer(f, ig.order)
}

// state returns the state of dir (absolute, slash), which must be root or
// under it: the top of the stack once the folders that are not dir's
// ancestors are popped, extended down to dir if need be.
func (ig *ignorer) state(dir string) *dirState {
	for len(ig.stack) > 0 && !within(ig.stack[len(ig.stack)-1].dir, dir) {
		ig.stack[len(ig.stack)-1].close()
		ig.stack = ig.stack[:len(ig.stack)-1]
	}
	var cur *dirState
	if len(ig.stack) > 0 {
		cur = ig.stack[len(ig.stack)-1]
	} else {
		if !within(ig.root, dir) {
			return nil
		}
		cur = &dirState{dir: ig.root, layers: ig.base}
		if h, err := os.OpenRoot(filepath.FromSlash(ig.root)); err == nil {
			cur.handle = h
		}
		ig.stack = append(ig.stack, cur)
	}
	if cur.dir == dir {
		return cur
	}
	layers := cur.layers
	rest := strings.TrimPrefix(dir[len(cur.dir):], "/")
	for _, name := range strings.Split(rest, "/") {
		layers = layers.enter(name)
	}
	cur = &dirState{dir: dir, layers: layers}
	ig.stack = append(ig.stack, cur)
	return cur
}

// within tells whether d is a or under it (both absolute, slash).
func within(a, d string) bool {
	if !strings.HasPrefix(d, a) {
		return false
	}
	return len(d) == len(a) || d[len(a)] == '/' || strings.HasSuffix(a, "/")
}

// load reads dir's .gitignore, if it has one; dir is root or a folder the
// walk entered (its parent was loaded before).
func (ig *ignorer) load(dir string) {
	var st *dirState
	if parent, name := splitPath(dir); dir != ig.root && len(ig.stack) > 0 && within(ig.root, parent) {
		ps := ig.state(parent)
		st = &dirState{dir: dir, layers: ps.layers.enter(name)}
		if ps.handle != nil {
			// One descriptor a folder of the path walked: at most
			// about 2,000 (a path is at most 4 KiB); past the limit,
			// the lookup goes by path.
			if h, err := ps.handle.OpenRoot(name); err == nil {
				st.handle = h
			}
		}
		ig.stack = append(ig.stack, st)
	} else if st = ig.state(dir); st == nil {
		return
	}
	if st.loaded {
		return
	}
	st.loaded = true
	if f := ig.readGitignore(dir, st.handle); f != nil {
		st.layers = st.layers.add(ig.newLayer(f))
	}
}

// handle returns folder dir open, if load opened it, or nil.
func (ig *ignorer) handle(dir string) *os.Root {
	if st := ig.state(dir); st != nil && st.dir == dir {
		return st.handle
	}
	return nil
}

// close releases the folders' handles; the ignorer still works after it.
func (ig *ignorer) close() {
	for _, st := range ig.stack {
		st.close()
	}
}

// decide returns the pattern that decides for abs (absolute, slash; an
// entry of a folder the walk entered), and the file it is in; f is nil when
// no pattern matches.
func (ig *ignorer) decide(abs string, isDir bool) (f *ignoreFile, idx int32) {
	dir, name := splitPath(abs)
	st := ig.state(dir)
	if st == nil {
		return nil, -1
	}
	return st.layers.decide(name, isDir)
}

// ignored tells whether abs (absolute, slash) is ignored: the deepest
// ignore file with a matching pattern decides, then .git/info/exclude, then
// core.excludesFile.
func (ig *ignorer) ignored(abs string, isDir bool) bool {
	f, idx := ig.decide(abs, isDir)
	return f != nil && !f.pats[idx].negate
}

// splitPath splits a clean absolute slash path into its folder and name
// (path.Dir and path.Base without their Clean, which costs the path's
// length again).
func splitPath(abs string) (dir, name string) {
	i := strings.LastIndexByte(abs, '/')
	if i <= 0 {
		return "/", abs[i+1:]
	}
	return abs[:i], abs[i+1:]
}

// unwrap drops the *os.PathError around err: PathError names the path.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
