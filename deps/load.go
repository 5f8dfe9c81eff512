package deps

import (
	"bytes"
	"sync"
)

// Parsed keeps what a run parsed of its manifests (pyproject.toml), by
// path: the engine's project model reads a manifest's layout
// (ReadManifest) before any project is loaded, Load reads the same file
// for its requirements and its formatter settings, and a workspace's root
// manifest is asked once per member; with a Parsed shared by all of them
// (Options.Parsed), the file is parsed once per run.
//
// An entry is used only for the bytes it was parsed from: other bytes at
// the same path (the fixer's overlay of an edited manifest) are parsed
// anew and replace it. The trees are never changed once parsed, so one
// Parsed serves projects loaded in parallel. Lock files are not kept: they
// are read once, and their trees are the largest a run builds.
//
// The zero value is ready; a nil *Parsed parses every time.
type Parsed struct {
	mu sync.Mutex
	m  map[string]*parsedFile
}

// parsedFile is one manifest parsed: its tree or the parse error, and its
// layout once asked for.
type parsedFile struct {
	src  []byte
	root *ttable
	err  error

	manifestOnce sync.Once
	manifest     Manifest
}

// parse is parseTOML (a test counts the parses).
var parse = parseTOML

// file returns the entry of path p for src, parsing it when the entry is
// for other bytes or missing.
func (c *Parsed) file(p string, src []byte) *parsedFile {
	if c == nil {
		root, err := parse(p, src)
		return &parsedFile{src: src, root: root, err: err}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.m[p]; f != nil && sameBytes(f.src, src) {
		return f
	}
	root, err := parse(p, src)
	f := &parsedFile{src: src, root: root, err: err}
	if c.m == nil {
		c.m = map[string]*parsedFile{}
	}
	c.m[p] = f
	return f
}

// toml returns the tree of the TOML file p with contents src. The error,
// a *FileError, is a copy: the loader that receives it completes it in
// place (its line, its quoted message).
func (c *Parsed) toml(p string, src []byte) (*ttable, error) {
	f := c.file(p, src)
	if fe, ok := f.err.(*FileError); ok {
		cp := *fe
		return nil, &cp
	}
	return f.root, f.err
}

// ReadManifest is the package's ReadManifest, from the tree c holds for
// p when it holds one for src.
func (c *Parsed) ReadManifest(p string, src []byte) (Manifest, bool) {
	f := c.file(p, src)
	if f.err != nil {
		return Manifest{}, false
	}
	f.manifestOnce.Do(func() { f.manifest = manifestOf(f.root) })
	return f.manifest, true
}

// sameBytes tells whether a and b hold the same bytes, at once when they
// are the same slice (the engine passes a file's one copy around).
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return bytes.Equal(a, b)
}
