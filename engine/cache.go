package engine

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcplint/mcplint/rules"
)

// Cache keeps what runs computed, so that a run on files that did not
// change does not analyse them again (ruff's cache, in its place: a
// .mcplint_cache folder at the scan root).
//
// What is kept, per run configuration (the mcplint build, the options that
// change findings, the working directory and the roots):
//   - per file: the content's SHA-256, whether it is a PEP 723 script and
//     whether it mentions a suppression, its comments' ranges, and the
//     file's stat signature (size, modification and change times, inode)
//     from when it was hashed. A later run trusts the hash without reading
//     the file only when the signature is identical and was taken at least
//     two seconds after the file's last change ("racy" files, as git calls
//     them, are hashed again, so an edit within the same timestamp tick
//     is never missed);
//   - per project: its findings, handlers and guard, and what the reports
//     print of its dependency files (versions, version sources, notes), keyed by the hashes of
//     every file of the project (and the run configuration), with the hash of
//     every other file its analysis read (an included requirements file).
//
// A cache entry can only be used for the very contents it was computed
// from. A repository can still ship a forged .mcplint_cache whose entries
// claim wrong findings for the right contents, so every cache file carries
// an HMAC-SHA256 under a random key kept outside the repository, in the
// user's cache folder (KeyFile); a file without the right MAC (forged,
// copied from another machine, corrupt, truncated, from another version)
// is ignored and rebuilt, with a note.
//
// Nil or the zero value is no cache. One Cache serves runs with the same
// options (fix rounds share it: only the projects the fixes touch are
// analysed again). Safe for concurrent use.
type Cache struct {
	dir     string
	keyFile string
	version string

	mu     sync.Mutex
	key    []byte
	keyErr error
	states map[string]*cacheState
	notes  []string
	noted  map[string]bool
}

// CacheOptions configures NewCache.
type CacheOptions struct {
	// Dir is the cache folder; "" keeps the cache in memory only (it then
	// serves the runs of one process, as the fix rounds).
	Dir string
	// Version identifies the build: version, commit, and for a build with
	// no commit what identifies the binary. Entries of another build are
	// not used.
	Version string
	// KeyFile holds the MAC key (created on first use, mode 0600). "" means
	// DefaultKeyFile.
	KeyFile string
}

// cacheFormat changes when the layout of a cache file changes.
const cacheFormat = "mcplint-cache-6"

// cacheMagic starts every cache file.
var cacheMagic = []byte("MCPLINTC")

// keepUnused is how long an entry no run used stays in the cache (other
// roots, another branch's contents).
const keepUnused = 7 * 24 * time.Hour

// maxCacheFile bounds what is read of a cache file (a planted one could be
// huge); a real one takes some hundred bytes a file.
const maxCacheFile = 1 << 30

// racySlack is how long after a file's last change its stat signature is
// trusted: coarse file systems keep times to 1 or 2 seconds.
const racySlack = 2 * time.Second

// NewCache returns a cache. Nothing is read or written until a run uses it.
func NewCache(o CacheOptions) *Cache {
	return &Cache{dir: o.Dir, keyFile: o.KeyFile, version: o.Version, states: map[string]*cacheState{}}
}

// DefaultKeyFile is where the MAC key lives: mcplint/cache-key in the
// user's cache folder ($XDG_CACHE_HOME or ~/.cache on Linux).
func DefaultKeyFile() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "mcplint", "cache-key"), nil
}

// Notes returns what the cache had to say (an unreadable or forged cache
// file, a cache folder that cannot be written), each once.
func (c *Cache) Notes() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.notes
	c.notes = nil
	return out
}

func (c *Cache) note(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.noted == nil {
		c.noted = map[string]bool{}
	}
	if !c.noted[msg] {
		c.noted[msg] = true
		c.notes = append(c.notes, msg)
	}
}

// fileSig is what a file's stat says; a file whose signature is unchanged
// since it was hashed is trusted to hold the same bytes.
type fileSig struct {
	Size, Mtime, Ctime int64
	Ino, Dev           uint64
	Mode               uint32
}

func sigOf(st fs.FileInfo) fileSig {
	s := fileSig{Size: st.Size(), Mtime: st.ModTime().UnixNano(), Mode: uint32(st.Mode())}
	sysSig(st, &s)
	return s
}

// trusted reports whether a signature taken at start can stand for the
// file's contents later: the file had not changed for racySlack.
func (s fileSig) trusted(start time.Time) bool {
	limit := start.Add(-racySlack).UnixNano()
	return s.Mtime != 0 && s.Mtime < limit && s.Ctime < limit
}

// fileEntry is what a run knows of one file's contents.
type fileEntry struct {
	Sig         fileSig // zero: not to be trusted without hashing
	Hash        contentHash
	Err         string // the read error; Hash is zero
	Script      bool   // a PEP 723 script
	Marks       bool   // mentions a suppression (MayHaveDirective)
	Comments    [][2]int
	HasComments bool
	Seen        int64 // the last run that saw it (Unix seconds)
}

// same reports whether two entries describe the same contents.
func (f *fileEntry) same(g *fileEntry) bool {
	return f != nil && g != nil && f.Hash == g.Hash && f.Err == g.Err
}

// contentHash is a file's SHA-256. The cache file keeps it as a byte
// string: gob reads an array of bytes one byte at a time, and a cache file
// holds one for each of thousands of files.
type contentHash [32]byte

func (h contentHash) GobEncode() ([]byte, error) { return h[:], nil }

func (h *contentHash) GobDecode(b []byte) error {
	if len(b) != len(h) {
		return fmt.Errorf("a content hash of %d bytes", len(b))
	}
	copy(h[:], b)
	return nil
}

// readRecord is a file a project's analysis read besides its own files.
type readRecord struct {
	Path string
	Hash contentHash
	Err  string
}

// projectEntry is one project's analysis.
type projectEntry struct {
	Extra    []readRecord
	Diags    []rules.Diagnostic
	Handlers handlerTable
	Guard    *GuardSummary
	Skipped  []Skip
	Modules  int
	// Unresolved and UnresolvedMatter are the summary's (ProjectSummary).
	Unresolved       []UnresolvedCall
	UnresolvedMatter bool
	CodeMCP1         string // what ties the code to mcp 1.x, for the versions reports show
	// Versions is what the reports print of the project's dependency
	// files, so that a run reusing the entry reads none of them (a 20 MB
	// uv.lock parsed again to print three versions).
	Versions *versionFacts
	Used     int64 // the last run that used it (Unix seconds)

	// ahead marks an analysis made ahead of the run that will use it
	// (Options.Speculate), with the number of files it parsed or reused;
	// not kept in the cache file.
	ahead       bool
	aheadParsed int

	// handlers are Handlers unpacked, once: an entry made by this process
	// holds the analysis' own, one read from the cache file unpacks its
	// table on first use. The fixer's rounds reuse entries without
	// unpacking them again.
	handlersOnce sync.Once
	handlers     []HandlerSummary
	handlersOK   bool // the table is one packHandlers made
}

// handlerList returns the entry's handlers, or false when its table is not
// one packHandlers made (the entry is then not used).
func (pe *projectEntry) handlerList() ([]HandlerSummary, bool) {
	pe.handlersOnce.Do(func() { pe.handlers, pe.handlersOK = pe.Handlers.unpack() })
	return pe.handlers, pe.handlersOK
}

// cacheState is the cache of one run configuration.
type cacheState struct {
	Files    map[string]*fileEntry
	Projects map[[32]byte]*projectEntry
}

// state returns the cache of a run configuration, read from the cache
// folder on first use.
func (c *Cache) state(digest string) *cacheState {
	c.mu.Lock()
	st := c.states[digest]
	c.mu.Unlock()
	if st != nil {
		return st
	}
	st = c.load(digest)
	if st == nil {
		st = &cacheState{Files: map[string]*fileEntry{}, Projects: map[[32]byte]*projectEntry{}}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.states[digest]; old != nil {
		return old
	}
	c.states[digest] = st
	return st
}

func (c *Cache) file(st *cacheState, p string) *fileEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return st.Files[p]
}

func (c *Cache) project(st *cacheState, key [32]byte) *projectEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return st.Projects[key]
}

func (c *Cache) putProject(st *cacheState, key [32]byte, pe *projectEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st.Projects[key] = pe
}

// takeAhead reports whether pe was analysed ahead of the run that now uses
// it, and with how many files parsed; only its first use is told so.
func (c *Cache) takeAhead(pe *projectEntry) (parsed int, ahead bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	parsed, ahead = pe.aheadParsed, pe.ahead
	pe.ahead, pe.aheadParsed = false, 0
	return parsed, ahead
}

// fileName is the cache file of a run configuration.
func fileName(digest string) string { return "run-" + digest[:32] + ".bin" }

// macKey returns the MAC key, reading or creating KeyFile once.
func (c *Cache) macKey() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != nil || c.keyErr != nil {
		return c.key, c.keyErr
	}
	c.key, c.keyErr = loadKey(c.keyFile)
	return c.key, c.keyErr
}

func loadKey(p string) ([]byte, error) {
	if p == "" {
		var err error
		if p, err = DefaultKeyFile(); err != nil {
			return nil, err
		}
	}
	read := func() ([]byte, error) {
		st, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() || st.Size() != 32 {
			return nil, fmt.Errorf("%s is not a cache key (32 bytes in a regular file)", p)
		}
		return os.ReadFile(p)
	}
	if k, err := read(); err == nil {
		return k, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	if err := createOnce(filepath.Dir(p), filepath.Base(p), k, 0o600); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return read() // another process may have won the race: use its key
}

func mac(key []byte, name string, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(payload)
	return h.Sum(nil)
}

// load reads the cache file of a configuration; nil when there is none or
// it cannot be used (with a note, except when there is none).
func (c *Cache) load(digest string) *cacheState {
	if c.dir == "" {
		return nil
	}
	name := fileName(digest)
	p := filepath.Join(c.dir, name)
	if st, err := os.Lstat(c.dir); err != nil || !st.IsDir() {
		if err == nil {
			c.note("cache %s is not a folder (a symlink is not followed): not used", c.dir)
		}
		return nil
	}
	st, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	if !st.Mode().IsRegular() {
		c.note("cache file %s is not a regular file: not used", p)
		return nil
	}
	if st.Size() > maxCacheFile {
		c.note("cache file %s is over %d bytes: rebuilt", p, maxCacheFile)
		return nil
	}
	key, err := c.macKey()
	if err != nil {
		c.note("cache not used: no cache key: %v", err)
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		c.note("cache file %s cannot be read (%v): rebuilt", p, err)
		return nil
	}
	if len(data) < len(cacheMagic)+32 || !bytes.Equal(data[:len(cacheMagic)], cacheMagic) ||
		!hmac.Equal(data[len(cacheMagic):len(cacheMagic)+32], mac(key, name, data[len(cacheMagic)+32:])) {
		c.note("cache file %s is damaged or was not written by this user's mcplint: rebuilt", p)
		return nil
	}
	var s cacheState
	if err := gob.NewDecoder(bytes.NewReader(data[len(cacheMagic)+32:])).Decode(&s); err != nil {
		c.note("cache file %s cannot be decoded (%v): rebuilt", p, err)
		return nil
	}
	if s.Files == nil {
		s.Files = map[string]*fileEntry{}
	}
	if s.Projects == nil {
		s.Projects = map[[32]byte]*projectEntry{}
	}
	for _, pe := range s.Projects {
		if pe.Versions != nil {
			pe.Versions.restore()
		}
	}
	return &s
}

// save writes what a run used (files and projects) as the configuration's
// cache file, and makes the folder a cache folder (CACHEDIR.TAG, a
// .gitignore of "*"). Failures are notes.
func (c *Cache) save(digest string, s *cacheState) {
	if c.dir == "" {
		return
	}
	key, err := c.macKey()
	if err != nil {
		c.note("cache not written: no cache key: %v", err)
		return
	}
	if err := c.prepareDir(); err != nil {
		c.note("cache not written: %v", err)
		return
	}
	// The header (magic, then the MAC of what follows) is written in place
	// once the state is encoded after it: no second copy of a large state.
	var buf bytes.Buffer
	buf.Write(cacheMagic)
	buf.Write(make([]byte, 32))
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		c.note("cache not written: %v", err)
		return
	}
	name := fileName(digest)
	data := buf.Bytes()
	copy(data[len(cacheMagic):], mac(key, name, data[len(cacheMagic)+32:]))
	if err := writeAtomic(c.dir, name, data, 0o644); err != nil {
		c.note("cache not written: %v", err)
	}
}

const cacheDirTag = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by mcplint.\n# For information about cache directory tags see https://bford.info/cachedir/\n"

// prepareDir creates the cache folder if needed; a symlink or a file in
// its place is refused, never followed.
func (c *Cache) prepareDir() error {
	st, err := os.Lstat(c.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(c.dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if st, err = os.Lstat(c.dir); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder (a symlink is not followed)", c.dir)
	}
	for name, content := range map[string]string{"CACHEDIR.TAG": cacheDirTag, ".gitignore": "# Created by mcplint.\n*\n"} {
		if cur, err := os.Lstat(filepath.Join(c.dir, name)); err == nil && cur.Mode().IsRegular() {
			continue
		}
		if err := writeAtomic(c.dir, name, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes data to dir/name through a new temporary file in dir
// (created exclusively, so never through a planted symlink) renamed over
// name (which replaces a symlink there rather than following it).
func writeAtomic(dir, name string, data []byte, perm os.FileMode) error {
	return publish(dir, name, data, perm, false)
}

// createOnce is writeAtomic for a file that must be created only once: the
// complete file is linked into place, so when two processes race the first
// one's file stays and the other gets an error wrapping fs.ErrExist (a
// rename would replace a key the first one may already have used). Where
// the file system has no hard links, it falls back to a rename.
func createOnce(dir, name string, data []byte, perm os.FileMode) error {
	return publish(dir, name, data, perm, true)
}

func publish(dir, name string, data []byte, perm os.FileMode, once bool) error {
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil && once {
		err = os.Link(tmp, filepath.Join(dir, name))
		if err == nil || errors.Is(err, fs.ErrExist) {
			os.Remove(tmp)
			return err
		}
		err = nil // no hard links here: rename
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// digestWriter builds the keys: length-prefixed fields, so that no two
// field lists give the same bytes.
type digestWriter struct{ h io.Writer }

func (d digestWriter) str(s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	d.h.Write(n[:])
	io.WriteString(d.h, s)
}

// runDigest identifies a run configuration: the build, the options that
// change what a project's analysis finds, and where paths are relative to.
// The roots are not part of it (what they change for a project is part of
// the project's key), so that runs on different roots share entries (the
// pre-commit hook's roots are the projects a commit touches).
func (e *runner) runDigest() string {
	h := sha256.New()
	d := digestWriter{h}
	d.str(cacheFormat)
	d.str(e.cache.version)
	wd, _ := os.Getwd()
	d.str(wd)
	d.str("assume-mcp=" + e.opts.AssumeMCP)
	d.str("assume-fastmcp=" + e.opts.AssumeFastMCP)
	d.str(fmt.Sprint("report-unreachable=", e.opts.ReportUnreachable))
	d.str("decorators=" + strings.Join(e.opts.HandlerDecorators, "\x00"))
	d.str(fmt.Sprintf("limits=%+v", e.opts.limits()))
	d.str(fmt.Sprint("tracked-only=", e.opts.Walk.Tracked != nil))
	d.str(fmt.Sprint("max-same=", e.opts.MaxSame))
	if e.opts.Rules == nil {
		d.str("rules=default")
	} else {
		var codes []string
		for _, r := range e.opts.Rules {
			codes = append(codes, r.Code)
		}
		d.str("rules=" + strings.Join(codes, ","))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// projectKey identifies a project's inputs: its kind, folder and the
// contents of its files.
func (e *runner) projectKey(pr *project, facts map[string]*fileEntry) [32]byte {
	h := sha256.New()
	d := digestWriter{h}
	d.str(e.digest)
	d.str(fmt.Sprint(pr.script))
	d.str(pr.dir)
	// What the scan roots change for the project: the folder its includes
	// must stay in, and whether a root is a file inside it.
	d.str(e.containRoot(pr.dir))
	d.str(fmt.Sprint(e.codeUnseen(pr)))
	d.str(fmt.Sprint(pr.scriptServer, pr.codeElsewhere, pr.membersJoined))
	for _, list := range [][]string{pr.depFiles, pr.pyFiles} {
		d.str("files")
		for _, p := range list {
			f := facts[p]
			_, edited := e.opts.Overlay[p]
			d.str(fmt.Sprintf("%s\x00%x\x00%s\x00%v", p, f.Hash, f.Err, edited))
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// saveCache writes the run's cache: the files it saw and the projects it
// looked up or analysed, and the entries of the cache it read that other
// runs used in the last week.
func (e *runner) saveCache() {
	if e.cache == nil {
		return
	}
	stamp := e.start.Unix()
	out := &cacheState{Files: map[string]*fileEntry{}, Projects: map[[32]byte]*projectEntry{}}
	e.runFacts.Range(func(k, v any) bool {
		p, f := k.(string), *v.(*fileEntry)
		if _, ok := e.opts.Overlay[p]; ok {
			return true // not the disk's contents
		}
		if spans, ok := e.res.Comments[p]; ok {
			f.Comments, f.HasComments = spans, true
		}
		f.Seen = stamp
		out.Files[p] = &f
		return true
	})
	e.cache.mu.Lock()
	unchanged := e.cacheUnchanged(out)
	old := e.start.Add(-keepUnused).Unix()
	for p, f := range e.state.Files {
		if _, ok := out.Files[p]; !ok && f.Seen >= old {
			out.Files[p] = f
		}
	}
	for p, f := range out.Files { // for the next run of this process
		if f.Sig != (fileSig{}) {
			e.state.Files[p] = f
		}
	}
	for k, pe := range e.state.Projects {
		if e.usedProjects[k] {
			pe.Used = stamp
		}
		if pe.Used >= old {
			out.Projects[k] = pe
		}
	}
	e.cache.mu.Unlock()
	if unchanged {
		return
	}
	e.cache.save(e.digest, out)
}

// cacheUnchanged reports whether the cache file would say what it says
// already but for its stamps, and every stamp this run would refresh is
// recent (within half of keepUnused): no project was analysed, and every
// file this run saw has the entry the cache holds. Such a run (a warm run
// of an unchanged tree: a pre-commit hook, an editor) writes nothing. A run
// that skips the write loses nothing: entries are found by content, so at
// worst a later run recomputes. Called with e.cache.mu held, before the
// in-memory state takes this run's entries.
func (e *runner) cacheUnchanged(out *cacheState) bool {
	if e.counts.analysed.Load() != 0 {
		return false
	}
	fresh := e.start.Add(-keepUnused / 2).Unix()
	for p, f := range out.Files {
		o := e.state.Files[p]
		if o == nil || o.Seen < fresh || o.Sig != f.Sig || !o.same(f) || o.Script != f.Script || o.Marks != f.Marks ||
			o.HasComments != f.HasComments || !slices.Equal(o.Comments, f.Comments) {
			return false
		}
	}
	for k, pe := range e.state.Projects {
		if e.usedProjects[k] && pe.Used < fresh {
			return false
		}
	}
	return true
}
