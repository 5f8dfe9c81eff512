package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// project is one directory with dependency files and the Python files that
// belong to it.
type project struct {
	dir      string
	depFiles []string
	pyFiles  []string
	script   bool // a PEP 723 script: pyFiles has exactly the script
	// walked: the walk found a dependency file in dir (the project exists
	// even when every Python file of it is a script).
	walked bool
	order  []int // the walk's index of each of pyFiles
	// scriptServer: a PEP 723 script split off from dir (a project of its
	// own) registers a handler, so dir's dependency files may be what
	// installs it (a requirements.txt beside the script): the project
	// counts as a server for the dependency rules.
	scriptServer bool
	// The project model (layout.go): why says why a dependency file of
	// another folder belongs to the project (deps.Options.Why);
	// membersJoined: its workspace members were joined into it; joined
	// says, for --verbose and the json output, what was joined and why;
	// codeElsewhere: the folder's code belongs to the enclosing project
	// that installs it, so the dependency rules cannot tell from it alone
	// whether the folder's files install a server.
	why           map[string]string
	membersJoined bool
	joined        []string
	codeElsewhere bool
}

// now is the clock (tests move it forward).
var now = time.Now

// Run analyses roots.
func Run(roots []string, opts Options) (*Result, error) {
	if len(roots) == 0 {
		roots = []string{"."}
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.NumCPU()
	}
	e := &runner{opts: opts, res: &Result{Sources: map[string][]byte{}, Suppressed: map[string]int{}, Dropped: map[string]int{}, markerless: map[string]bool{}}, refused: map[string]error{},
		resMu: &sync.Mutex{}, sink: &sink{}, start: now(), runFacts: &sync.Map{}, extraRecords: &sync.Map{}, usedProjects: map[[32]byte]bool{}, counts: &runCounts{},
		depReads: &readCache{}, parsed: &deps.Parsed{}}
	files, walkErrs := workspace.Walk(roots, workspace.Options{Exclude: opts.Walk.Exclude, IncludeHidden: opts.Walk.IncludeHidden, NoGitignore: opts.Walk.NoGitignore, Tracked: opts.Walk.Tracked})
	e.res.Untracked = opts.Walk.Tracked.Skipped()
	for _, err := range walkErrs {
		p, msg := err.Error(), err.Error()
		if pe, ok := err.(*workspace.PathError); ok {
			// The finding is at the path: its message says what is wrong
			// there, without the path again.
			p, msg = pe.Path, pe.Err.Error()
			if workspace.Refused(err) {
				e.refused[p] = pe.Err
			}
		}
		e.fileError(p, nil, 0, msg)
	}
	files = e.withOverlayFiles(files, roots)
	e.res.Files = len(files)
	e.res.read = e.read
	for _, f := range files {
		e.res.Paths = append(e.res.Paths, f.Path)
	}
	for _, r := range roots {
		e.res.Roots = append(e.res.Roots, workspace.DisplayPath(r))
	}
	if opts.Cache != nil {
		e.cache = opts.Cache
		e.digest = e.runDigest()
		e.state = e.cache.state(e.digest)
	}
	e.runProjects(e.projects(files, roots))
	e.res.Analysed, e.res.Reused, e.res.ParsedNow = int(e.counts.analysed.Load()), int(e.counts.reused.Load()), int(e.counts.parsed.Load())
	diags := e.sink.diags
	for _, d := range diags {
		e.keepSource(d.Path)
	}
	out, err := e.finish(e.res, diags)
	if err != nil {
		return nil, err
	}
	e.res.Diagnostics = out
	e.saveCache()
	return e.res, nil
}

// finish turns the diagnostics of res's analysis into what the run reports:
// the processors (suppressions, baseline, ...), the findings that cannot
// crash the project's versions dropped or, with ShowSafe, made notes, in
// order. A speculative analysis (speculate.go) asks it the same question.
func (e *runner) finish(res *Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	for _, p := range e.opts.Processors {
		var err error
		if diags, err = p.Process(res, diags); err != nil {
			return nil, fmt.Errorf("%s: %w", p.Name(), err)
		}
	}
	out := diags[:0]
	for _, d := range diags {
		if d.Severity == rules.SeverityNone {
			if !e.opts.ShowSafe {
				continue
			}
			d.Severity = rules.SeverityNote
		}
		out = append(out, d)
	}
	SortDiagnostics(out)
	return out, nil
}

// withOverlayFiles adds the files of the overlay that do not exist on disk
// (a fix that creates a module) under the roots, so the re-analysis sees
// them as the walk would.
func (e *runner) withOverlayFiles(files []workspace.File, roots []string) []workspace.File {
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path] = true
	}
	added := false
	for p := range e.opts.Overlay {
		kind, ok := workspace.Classify(p)
		if !ok || seen[p] || !underRoot(p, roots) {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			continue // on disk but excluded or ignored: the walk knows best
		}
		files = append(files, workspace.File{Path: p, Kind: kind})
		added = true
	}
	if added {
		sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	}
	return files
}

func underRoot(p string, roots []string) bool {
	for _, r := range roots {
		r = workspace.DisplayPath(r)
		if r == "." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "/") || p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// SortDiagnostics orders diagnostics by path, position and code.
func SortDiagnostics(ds []rules.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset < b.Start.Offset
		}
		return a.Code < b.Code
	})
}

type runner struct {
	opts Options
	res  *Result
	// resMu guards the fields of res written while projects run (Comments).
	resMu *sync.Mutex
	// sink collects the diagnostics: the run's, or one project's while the
	// projects run in parallel.
	sink *sink
	// ps is the project being analysed (nil outside one).
	ps *projState
	// The cache (nil: none), the run's configuration digest and cache,
	// what this run learned of each file, and the projects it used.
	cache    *Cache
	digest   string
	state    *cacheState
	start    time.Time
	runFacts *sync.Map // path -> *fileEntry
	// extraRecords are the reads outside a project that cached entries
	// record (the formatter settings and manifests of the folders above
	// it), checked once a run however many entries share them.
	extraRecords *sync.Map // path -> readRecord
	usedProjects map[[32]byte]bool
	counts       *runCounts
	// outer memoizes outerProject by scan root.
	outer map[string]string
	// refused are paths never to read (symlinks out of the scanned tree,
	// into version-control internals, to a file of another kind), not even
	// for a code frame, and why; written before the analysis starts.
	refused map[string]error
	// depReads are the reads of dependency files the run keeps (readDep,
	// keepsRead), which every later read of them takes (readRaw); parsed
	// are the manifests parsed, for the layout and the projects' loads:
	// each dependency file is read and parsed once per run.
	depReads *readCache
	parsed   *deps.Parsed
	// depShared are the dependency files of more than one project
	// (keepsRead); written before the analysis starts.
	depShared map[string]bool
}

type sink struct {
	mu    sync.Mutex
	diags []rules.Diagnostic
	// kinds counts the findings of each kind kept in full, and where the
	// last of them is: past Options.MaxSame, the next of the kind are kept
	// as their place in its More.
	kinds map[foldKey]*foldCount
	// skipped are the Python files of the project not parsed.
	skipped []Skip
}

// skip records that a Python file of the project is not parsed, and why.
func (e *runner) skip(path, why string) {
	e.sink.mu.Lock()
	e.sink.skipped = append(e.sink.skipped, Skip{path, why})
	e.sink.mu.Unlock()
}

// foldKey is a kind of finding: the findings of one kind differ only in
// their place (Diagnostic.More).
type foldKey struct {
	code, path, msg, anchor string
	exposure                deps.Tri
	sev                     rules.Severity
}

type foldCount struct{ kept, last int }

func foldKeyOf(d *rules.Diagnostic) foldKey {
	return foldKey{d.Code, d.Path, d.Message, d.Anchor, d.Exposure, d.Severity}
}

// folds reports whether add would fold d into a finding before it. The
// caller holds s.mu.
func (s *sink) folds(d *rules.Diagnostic, maxSame int) (*foldCount, bool) {
	if maxSame <= 0 {
		return nil, false
	}
	c := s.kinds[foldKeyOf(d)]
	return c, c != nil && c.kept >= maxSame
}

func (e *runner) add(d rules.Diagnostic) {
	s := e.sink
	s.mu.Lock()
	defer s.mu.Unlock()
	c, fold := s.folds(&d, e.opts.MaxSame)
	if fold {
		last := &s.diags[c.last]
		last.More = append(append(last.More, rules.PlaceOf(&d)), d.More...)
		return
	}
	if e.opts.MaxSame > 0 {
		if c == nil {
			if s.kinds == nil {
				s.kinds = map[foldKey]*foldCount{}
			}
			c = &foldCount{}
			s.kinds[foldKeyOf(&d)] = c
		}
		c.kept++
		c.last = len(s.diags)
	}
	s.diags = append(s.diags, d)
}

// folded reports whether add would keep d as its place alone.
func (e *runner) folded(d *rules.Diagnostic) bool {
	e.sink.mu.Lock()
	defer e.sink.mu.Unlock()
	_, fold := e.sink.folds(d, e.opts.MaxSame)
	return fold
}

// runProjects analyses the projects on a pool of opts.Jobs goroutines, each
// project into its own sink, and merges the results in project order (the
// folders' projects, then the PEP 723 scripts in walk order), so the output
// does not depend on the number of workers or their timing.
func (e *runner) runProjects(prs []*project) {
	type result struct {
		dir     *projectRun
		scripts []scriptRun
	}
	results := make([]result, len(prs))
	parallel(len(prs), e.opts.Jobs, func(i int) {
		results[i].dir, results[i].scripts = e.analyseAll(prs[i])
	})
	var scripts []scriptRun
	merge := func(r *projectRun) {
		e.res.Projects = append(e.res.Projects, r.sum)
		e.res.Parsed += r.sum.Modules
		e.sink.diags = append(e.sink.diags, r.sink.diags...)
	}
	for _, r := range results {
		if r.dir != nil {
			merge(r.dir)
		}
		scripts = append(scripts, r.scripts...)
	}
	sort.Slice(scripts, func(i, j int) bool { return scripts[i].order < scripts[j].order })
	for _, s := range scripts {
		merge(s.run)
	}
}

// parallel calls f(0) .. f(n-1) on at most jobs goroutines.
func parallel(n, jobs int, f func(i int)) {
	if jobs <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// read returns a file's bytes from the overlay or the disk: only a regular
// file, and at most the limit for its kind (safeio); larger Python files are
// generated code in practice.
func (e *runner) read(p string) ([]byte, error) {
	ps := e.ps
	if ps == nil {
		return e.readRaw(p)
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if b, ok := ps.srcs[p]; ok {
		return b, nil
	}
	b, err := e.readRaw(p)
	if _, own := ps.facts[p]; !own && ps.reads != nil {
		if _, ok := ps.reads[p]; !ok {
			ps.reads[p] = e.readRecordOf(p, b, err)
		}
	}
	return b, err
}

// readRaw reads a file from the overlay or the disk, or from what the run
// kept of an earlier read (depReads, keepsRead).
func (e *runner) readRaw(p string) ([]byte, error) { return e.readKeeping(p, false) }

// readDep is readRaw for the files the project model reads before the
// projects are analysed (manifests, requirements files and what they
// include, the manifests above a workspace member), whatever their names:
// what it reads, bytes or error, is kept for the rest of the run, so that
// the analysis of the project, the cache's hashing and the reports read
// the same bytes, and the disk once.
func (e *runner) readDep(p string) ([]byte, error) { return e.readKeeping(p, true) }

// readKeeping is readRaw, keeping what it reads from the disk when keep
// says so or keepsRead does. The overlay is read first and never kept.
func (e *runner) readKeeping(p string, keep bool) ([]byte, error) {
	if b, ok := e.opts.Overlay[p]; ok {
		return b, nil
	}
	if keep || e.keepsRead(p) {
		if e.depReads != nil {
			r := e.depReads.do(p, func() cachedRead {
				b, err := e.readUncached(p)
				return cachedRead{b, err}
			})
			return r.b, r.err
		}
	} else if r, ok := e.depReads.get(p); ok {
		return r.b, r.err
	}
	return e.readUncached(p)
}

// keepsRead tells the files whose reads the run keeps (depReads): the
// dependency files that more than one reader asks for. Those are the
// manifests and requirements files (the project model reads them before
// the projects' loads do, and each project's search for its formatter
// settings asks for the pyproject.toml and setup.cfg of the folders above
// it, most of which do not exist), and a lock that more than one project
// reads (a workspace's, for members scanned apart). A lock of one project
// is read once, by it; keeping it would keep the largest files of a run
// alive to its end.
func (e *runner) keepsRead(p string) bool {
	if e.depShared[p] {
		return true
	}
	k, ok := workspace.Classify(p)
	return ok && k == workspace.Dependency && !deps.IsLockFile(path.Base(p))
}

// readCache is the bytes (or the error) of files read once for a run, by
// path: two workers asking for one file at once read it once (the second
// waits for the first). A nil *readCache holds nothing.
type readCache struct {
	mu sync.Mutex
	m  map[string]*readEntry
}

type readEntry struct {
	done chan struct{} // closed once r is read
	r    cachedRead
}

type cachedRead struct {
	b   []byte
	err error
}

// get returns what a read (do) of p kept, waiting for one under way.
func (c *readCache) get(p string) (cachedRead, bool) {
	if c == nil {
		return cachedRead{}, false
	}
	c.mu.Lock()
	e := c.m[p]
	c.mu.Unlock()
	if e == nil {
		return cachedRead{}, false
	}
	<-e.done
	return e.r, true
}

// do returns what read gives for p, calling it once per run: the first
// caller reads, the others wait for its result.
func (c *readCache) do(p string, read func() cachedRead) cachedRead {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*readEntry{}
	}
	if e := c.m[p]; e != nil {
		c.mu.Unlock()
		<-e.done
		return e.r
	}
	e := &readEntry{done: make(chan struct{})}
	c.m[p] = e
	c.mu.Unlock()
	e.r = read()
	close(e.done)
	return e.r
}

// readUncached is readRaw past the overlay and the run's reads.
func (e *runner) readUncached(p string) ([]byte, error) {
	if err := e.refused[p]; err != nil {
		return nil, &os.PathError{Op: "read", Path: p, Err: err}
	}
	if !e.opts.Walk.Tracked.Has(filepath.FromSlash(p)) {
		if _, err := os.Lstat(filepath.FromSlash(p)); errors.Is(err, fs.ErrNotExist) {
			// Not there at all: the fixer asks before it creates a file
			// (the guard module), and "untracked" would stop it.
			return nil, &os.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
		}
		return nil, &os.PathError{Op: "read", Path: p, Err: errUntracked}
	}
	return readDisk(p)
}

// readDisk is how readRaw reads the disk (tests count the reads).
var readDisk = ReadFile

// errUntracked is why a file git does not track is not read (an include,
// with WalkOptions.Tracked).
var errUntracked = errors.New("not tracked by git (--tracked-only): not read")

// ReadFile reads a scanned file (a slash path) from the disk with the
// limit of its kind: Python files (setup.py too) or dependency files.
func ReadFile(p string) ([]byte, error) {
	kind := safeio.Dependency
	if k, ok := workspace.Classify(p); ok && k == workspace.Python {
		kind = safeio.Python
	}
	return safeio.ReadFile(filepath.FromSlash(p), kind)
}

// readError is the MCP000 message for a file that could not be read.
func readError(err error) string {
	var tl *safeio.TooLargeError
	if errors.As(err, &tl) {
		return tl.Error() + ": skipped"
	}
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	return "cannot read: " + err.Error()
}

func (e *runner) keepSource(p string) {
	if _, ok := e.res.Sources[p]; ok || p == "" {
		return
	}
	if b, err := e.read(p); err == nil {
		e.res.Sources[p] = asAnalysed(p, b)
	}
}

// keepSeen keeps in Sources the bytes of p the analysis read, if any.
func (e *runner) keepSeen(p string, seen map[string][]byte) {
	b, ok := seen[p]
	if !ok {
		return
	}
	e.resMu.Lock()
	defer e.resMu.Unlock()
	if _, ok := e.res.Sources[p]; !ok {
		e.res.Sources[p] = asAnalysed(p, b)
	}
}

// fileError reports a file that could not be read or parsed (rule MCP000).
func (e *runner) fileError(p string, src []byte, off int, msg string) {
	d := rules.Diagnostic{Code: rules.FileErrorCode, Name: rules.FileError.Name, Message: msg, Severity: rules.SeverityError, Exposure: deps.Yes, Anchor: p}
	d.Path = p
	if src != nil {
		li := pyast.NewLineIndex(src)
		d.Start, d.End = li.Position(off), li.Position(off)
	} else {
		d.Start = pyast.Position{Line: 1, Column: 1, Column16: 1}
		d.End = d.Start
	}
	e.add(d)
}

// projects groups files: each Python file belongs to the nearest directory
// above it that holds a dependency file; files with none belong to the
// nearest such directory above the scan root, or to the root itself.
func (e *runner) projects(files []workspace.File, roots []string) []*project {
	byDir := map[string]*project{}
	get := func(dir string) *project {
		if pr := byDir[dir]; pr != nil {
			return pr
		}
		pr := &project{dir: dir}
		byDir[dir] = pr
		return pr
	}
	packages := map[string]bool{} // folders with an __init__.py
	for _, f := range files {
		if path.Base(f.Path) == "__init__.py" {
			packages[workspace.Dir(f.Path)] = true
		}
	}
	for _, f := range files {
		// setup.py is Python and a dependency file (read statically by
		// deps), unless it is a module of a package that happens to have
		// that name.
		isSetup := path.Base(f.Path) == "setup.py" && !packages[workspace.Dir(f.Path)]
		if f.Kind == workspace.Dependency || isSetup {
			pr := get(workspace.Dir(f.Path))
			pr.depFiles = append(pr.depFiles, f.Path)
		}
	}
	var pyPaths []string
	for _, f := range files {
		if f.Kind == workspace.Python {
			pyPaths = append(pyPaths, f.Path)
		}
	}
	redirect := e.layout(byDir, pyPaths, packages)
	// A file with a PEP 723 block is a project of its own: runProjects
	// splits those off when it reads the files (read once, there).
	for _, pr := range byDir {
		pr.walked = true
	}
	for i, f := range files {
		if f.Kind != workspace.Python {
			continue
		}
		owner := ""
		for d := workspace.Dir(f.Path); ; d = workspace.Dir(d) {
			if to, ok := redirect[d]; ok {
				owner = to
				break
			}
			if pr := byDir[d]; pr != nil && len(pr.depFiles) > 0 {
				owner = d
				break
			}
			if d == "." || d == "/" || d == ".." || strings.HasSuffix(d, "/..") {
				break
			}
		}
		if owner == "" {
			owner = e.outerProject(f.Path, roots, get)
		}
		pr := get(owner)
		pr.pyFiles = append(pr.pyFiles, f.Path)
		pr.order = append(pr.order, i)
	}
	e.outerWorkspaces(byDir)
	out := make([]*project, 0, len(byDir))
	owners := map[string]int{}
	for _, pr := range byDir {
		out = append(out, pr)
		for _, f := range pr.depFiles {
			if owners[f]++; owners[f] == 2 {
				if e.depShared == nil {
					e.depShared = map[string]bool{}
				}
				e.depShared[f] = true
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out
}

// outerProject finds a project for a file with no dependency file between it
// and its scan root: the nearest directory above the root that has one (as
// when `mcplint check src/` runs in a repository whose pyproject.toml is at
// the top), not crossing a repository boundary (a folder with .git). With
// none, the file belongs to its scan root.
func (e *runner) outerProject(file string, roots []string, get func(string) *project) string {
	root := ""
	for _, r := range roots {
		r = workspace.DisplayPath(r)
		if (r == "." || file == r || strings.HasPrefix(file, r+"/")) && len(r) >= len(root) {
			root = r
		}
	}
	if root == "" || root == file {
		root = workspace.Dir(file)
	}
	// The answer depends on the root only: look above each root once, not
	// once per file (a tree with no dependency file asks for every file).
	if dir, ok := e.outer[root]; ok {
		get(dir)
		return dir
	}
	dir := e.outerDir(root, get)
	if e.outer == nil {
		e.outer = map[string]string{}
	}
	e.outer[root] = dir
	return dir
}

// outerDir is outerProject's search above root.
func (e *runner) outerDir(root string, get func(string) *project) string {
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		return root
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return root
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		entries, _ := os.ReadDir(d)
		var found []string
		isRepo := false
		for _, en := range entries {
			if en.Name() == ".git" {
				isRepo = true
			}
			if !en.IsDir() && deps.IsDependencyFile(en.Name()) {
				found = append(found, en.Name())
			}
		}
		if len(found) > 0 {
			dir := workspace.DisplayPath(d)
			pr := get(dir)
			if len(pr.depFiles) == 0 {
				for _, name := range found {
					pr.depFiles = append(pr.depFiles, path.Join(dir, name))
				}
			}
			return dir
		}
		if isRepo || filepath.Dir(d) == d {
			return root
		}
	}
}

// containRoot is the folder the files named inside a project's dependency
// files (includes) must stay in: the outermost scan root the project is
// under (a file root's folder), or the project's own folder when it is above
// every scan root (a pyproject.toml found above `mcplint check src/`).
func (e *runner) containRoot(dir string) string {
	best := ""
	for _, r := range e.res.Roots {
		if st, err := os.Stat(filepath.FromSlash(r)); err == nil && !st.IsDir() {
			r = workspace.Dir(r)
		}
		if isUnder(dir, r) && (best == "" || isUnder(best, r)) {
			best = r
		}
	}
	if best == "" {
		return dir
	}
	return best
}

// isUnder tells whether the slash path p is dir or below it (display
// paths: "." is the working directory).
func isUnder(p, dir string) bool {
	switch {
	case p == dir:
		return true
	case dir == ".":
		return p != ".." && !strings.HasPrefix(p, "../") && !path.IsAbs(p)
	case dir == "/":
		return path.IsAbs(p)
	}
	return strings.HasPrefix(p, dir+"/")
}

// runProject analyses one project and returns its summary.
func (e *runner) runProject(pr *project) *ProjectSummary {
	// The bytes this project's analysis read, by path: the file of a
	// finding is kept in Sources as the rules saw it, not read again at the
	// end, so that the fixer applies edits to the bytes their offsets were
	// computed from (and notices a file saved meanwhile).
	seen := map[string][]byte{}
	read := func(p string) ([]byte, error) {
		b, err := e.read(p)
		if _, ok := seen[p]; !ok && err == nil {
			seen[p] = b
		}
		return b, err
	}
	proj, errs := e.loadDepsWith(pr, read, true)
	for _, err := range errs {
		if fe, ok := err.(*deps.FileError); ok {
			src, _ := e.read(fe.Path)
			e.fileError(fe.Path, src, fe.Offset, fe.Msg)
			continue
		}
		e.fileError(pr.dir, nil, 0, err.Error())
	}
	names := newModuleNames(pr)
	var mods []*pyast.Module
	if e.needsCode() {
		mods = e.loadModules(pr, names)
	}
	for _, m := range mods {
		seen[m.Path] = m.Src
	}
	hx := handlers.Build(mods, handlers.Config{ExtraDecorators: e.opts.HandlerDecorators, AllFunctions: e.opts.ReportUnreachable, ModuleFiles: names.files, ModuleNames: names.all(), EntryPoints: e.entryPoints(pr), Jobs: e.opts.Jobs})
	// Code that uses an API only mcp 1.x has runs only on mcp 1.x: an open
	// range of mcp is resolved within 1.x for it (deps.SetCodeNeedsMCP1).
	codeMCP1 := mcp1Code(pr.dir, hx)
	proj.SetCodeNeedsMCP1(codeMCP1)
	filesOnly := proj.WithoutCode()
	sum := &ProjectSummary{Dir: pr.dir, deps: proj, Modules: len(mods), codeMCP1: codeMCP1, Joined: pr.joined}
	if guard := hx.ActiveGuard(); guard != nil {
		sum.Guard = &GuardSummary{Path: guard.Module.Path, Line: guard.Module.Pos(int(guard.Stmt().StartByte())).Line}
	}
	for _, h := range hx.Handlers {
		sum.Handlers = append(sum.Handlers, HandlerSummary{
			Path: h.Module.Path, Line: h.Module.Pos(int(h.Func.Node.StartByte())).Line, Name: h.Func.Qual,
			Kind: h.Kind, Framework: h.Framework, Async: h.Func.Async(),
		})
	}

	sum.Unresolved = unresolvedCalls(hx)
	px := hx.Possible() // the call graph with the fallback's edges (handlers/unresolved.go)
	tooComplex := map[*pyast.Function]bool{}
	var copiedIn []string // a packaging folder's wheel packages (rules.Pass.CopiedIn)
	if len(pr.pyFiles) == 0 && !e.codeUnseen(pr) {
		copiedIn = e.builtPackages(pr)
	}
	for _, r := range e.rulesToRun() {
		if r.Run == nil {
			continue
		}
		exposure := deps.Yes
		byCode := false // the code, not the files, makes it 1.x
		if r.Exposure != nil {
			exposure = r.Exposure(proj)
			byCode = codeMCP1 != "" && r.Exposure(filesOnly) != exposure
		}
		sev := r.Severity
		switch exposure {
		case deps.Unknown:
			if sev > rules.SeverityWarning {
				sev = rules.SeverityWarning
			}
		case deps.No:
			sev = rules.SeverityNone
		}
		if r.Reach && sev > rules.SeverityNote && hx.ActiveGuard() == nil {
			sum.UnresolvedMatter = true // an unresolved call can hide a crash of this rule
		}
		if r.Kind == rules.CodeRule && len(hx.ReachableFuncs()) == 0 {
			continue // no handler code (a registration it cannot tell may serve some: counted above)
		}
		prepareIn := func(d *rules.Diagnostic, hx *handlers.Index) {
			if d.Exposure == deps.No { // the rule knows it cannot happen here
				d.Severity = rules.SeverityNone
			} else {
				d.Exposure, d.Severity = exposure, sev
				if byCode {
					d.Message += "\nthe project runs only on mcp 1.x although its requirement admits 2.x: its code " +
						codeMCP1 + ", which mcp 2.x removed"
				}
			}
			if g := guardOf(hx, r, d); g != nil {
				d.Severity = rules.SeverityNone // shown as a note with ShowSafe, like mcp >= 2
				d.Related = append(d.Related, rules.Related{Location: rules.NodeLocation(g.Module, g.Stmt()),
					Message: "guarded here: respond() and cancel() return early once the request was answered, so this cannot crash the server"})
			}
			if r.Kind == rules.CodeRule && hx.Unreached(d.Anchor) {
				d.Severity = rules.SeverityNote
			}
		}
		prepare := func(d *rules.Diagnostic) { prepareIn(d, hx) }
		possible := px != nil && r.Reach
		reported := map[possibleKey]bool{}
		report := func(d rules.Diagnostic) {
			if possible {
				reported[keyOf(&d)] = true
			}
			prepare(&d)
			e.add(d)
			e.keepSeen(d.Path, seen)
		}
		pass := rules.NewPass(r, pr.dir, proj, mods, hx, report)
		pass.SetFolds(func(d *rules.Diagnostic) bool {
			c := *d
			c.Related = nil // prepare may append to it
			prepare(&c)
			return e.folded(&c)
		})
		pass.PyFiles, pass.ReadFile = pr.pyFiles, e.read
		pass.CodeUnseen = e.codeUnseen(pr)
		pass.ScriptServer = pr.scriptServer || pr.codeElsewhere
		pass.CopiedIn = copiedIn
		pass.FunctionSteps = e.opts.limits().FunctionSteps
		// A function too complex for one rule is for the others too (they
		// share the analysis): one MCP000 each.
		tooComplexIn := func(p *rules.Pass) {
			for _, tc := range p.TooComplex() {
				if !tooComplex[tc.Func] {
					tooComplex[tc.Func] = true
					e.tooComplex(tc)
					e.keepSeen(tc.Module.Path, seen)
				}
			}
		}
		e.runRule(r, pass, pr.dir)
		tooComplexIn(pass)
		if possible {
			// The rule again, on the call graph with the fallback's edges:
			// what it reports there and not above is possibly reached, a
			// warning at most.
			again := rules.NewPass(r, pr.dir, proj, mods, px, func(d rules.Diagnostic) {
				k := keyOf(&d)
				if reported[k] || !rules.PossiblyReached(&d, px) {
					return
				}
				reported[k] = true
				prepareIn(&d, px)
				d.Severity = min(d.Severity, rules.SeverityWarning)
				e.add(d)
				e.keepSeen(d.Path, seen)
			})
			again.PyFiles, again.ReadFile = pass.PyFiles, pass.ReadFile
			again.CodeUnseen, again.ScriptServer, again.FunctionSteps = pass.CodeUnseen, pass.ScriptServer, pass.FunctionSteps
			pass = nil // its analysis is done with: not kept alive beside the second's
			e.runRule(r, again, pr.dir)
			tooComplexIn(again)
		}
	}
	e.sink.mu.Lock()
	sum.Skipped = append([]Skip(nil), e.sink.skipped...)
	e.sink.mu.Unlock()
	sort.Slice(sum.Skipped, func(i, j int) bool { return sum.Skipped[i].Path < sum.Skipped[j].Path })
	return sum
}

// possibleKey is where a code rule reports: a finding of the run on the
// fallback's call graph (handlers.Index.Possible) at the place of one the
// resolved graph gave is that one, not a possibly reached one.
type possibleKey struct {
	code, path string
	start, end int
}

func keyOf(d *rules.Diagnostic) possibleKey {
	return possibleKey{d.Code, d.Path, d.Start.Offset, d.End.Offset}
}

// unresolvedCalls lists the unresolved calls of hx for the summary.
func unresolvedCalls(hx *handlers.Index) []UnresolvedCall {
	var out []UnresolvedCall
	for _, u := range hx.UnresolvedCalls() {
		m := u.Caller.Module
		var cands []string
		for _, c := range u.Candidates {
			cands = append(cands, c.Func.Qual)
		}
		out = append(out, UnresolvedCall{Path: m.Path, Line: m.Pos(int(u.Call.StartByte())).Line,
			Callee: escape.Line(m.Text(pyast.Callee(u.Call)), escape.CodeRunes), Matching: u.Matching, Followed: u.Followed(), Candidates: cands, Registration: u.Registration})
	}
	return out
}

// guardOf returns the respond/cancel guard that closes what finding d of
// rule r reports (Rule.Guarded), or nil: for code, the guard of every
// server that runs d's function (handlers.Index.GuardOf); for a pin, the
// guard of every server of the project. A finding the rule marks
// Unguardable is never covered.
func guardOf(hx *handlers.Index, r *rules.Rule, d *rules.Diagnostic) *handlers.Guard {
	if !r.Guarded || d.Unguardable {
		return nil
	}
	if r.Kind == rules.CodeRule {
		if ref, ok := hx.Function(d.Anchor); ok {
			return hx.GuardOf(ref.Func)
		}
	}
	return hx.ActiveGuard()
}

// mcp1Code says what in the project's serving code ties it to mcp 1.x (the
// first use of an API that mcp 2 removed, hx.MCP1APIs, with its place
// relative to the project: "imports mcp.server.fastmcp (app/server.py:3)"),
// or "".
func mcp1Code(dir string, hx *handlers.Index) string {
	for _, u := range hx.MCP1APIs() {
		if !u.Serves {
			continue
		}
		rel := u.Module.Path
		if dir != "." {
			rel = strings.TrimPrefix(rel, dir+"/")
		}
		return fmt.Sprintf("%s (%s:%d)", u.Phrase(), rel, u.Module.Pos(int(u.Node.StartByte())).Line)
	}
	return ""
}

// loadDeps reads a project's dependency files.
// Without style, the formatter settings are not looked for.
func (e *runner) loadDeps(pr *project, style bool) *deps.Project {
	proj, _ := e.loadDepsWith(pr, e.read, style)
	return proj
}

func (e *runner) loadDepsWith(pr *project, read func(string) ([]byte, error), style bool) (*deps.Project, []error) {
	lim := e.opts.limits().Parse
	dopts := deps.Options{AssumeMCP: e.opts.AssumeMCP, AssumeFastMCP: e.opts.AssumeFastMCP, ReadFile: read, Root: filepath.FromSlash(e.containRoot(pr.dir)), ParseLimits: &lim, NoStyle: !style, Parsed: e.parsed, KeepRepeats: e.opts.MaxSame}
	var proj *deps.Project
	var errs []error
	if pr.script {
		src, _ := e.read(pr.pyFiles[0])
		proj, errs = deps.LoadScript(pr.pyFiles[0], src, dopts)
	} else {
		dopts.Why, dopts.MembersJoined = pr.why, pr.membersJoined
		proj, errs = deps.Load(pr.dir, pr.depFiles, dopts)
	}
	if proj == nil {
		proj = &deps.Project{Dir: pr.dir}
	}
	return proj, errs
}

// setVolatile marks the project's analysis as one not to cache.
func (e *runner) setVolatile() {
	if ps := e.ps; ps != nil {
		ps.mu.Lock()
		ps.volatile = true
		ps.mu.Unlock()
	}
}

// tooComplex reports a function whose analysis ran out of its step budget
// (MCP000 on its def line).
func (e *runner) tooComplex(tc checkpoint.TooComplexFunc) {
	m, at := tc.Module, tc.Func.Node
	d := rules.Diagnostic{Code: rules.FileErrorCode, Name: rules.FileError.Name, Message: tc.Message(), Severity: rules.SeverityError, Exposure: deps.Yes,
		Location: rules.NodeLocation(m, at), Anchor: tc.Func.Qual, AnchorStart: int(tc.Func.Stmt.StartByte()), AnchorEnd: int(tc.Func.Stmt.EndByte())}
	if name := tc.Func.Node.ChildByFieldName("name"); name != nil {
		d.Location = rules.NodeLocation(m, name)
	}
	e.add(d)
}

// needsCode reports whether a selected rule reads Python code (a code rule,
// or a dependency rule that asks whether the project is a server); when none
// does (--select MCP900), no Python file is parsed.
func (e *runner) needsCode() bool {
	for _, r := range e.rulesToRun() {
		if r.Kind == rules.CodeRule || r.ReadsCode {
			return true
		}
	}
	return false
}

// codeUnseen reports whether a scan root is a file inside the project's
// folder: the run then saw only the files given, not the project's code.
func (e *runner) codeUnseen(pr *project) bool {
	if pr.script {
		return false
	}
	for _, r := range e.res.Roots {
		if fi, err := os.Stat(r); err == nil && !fi.IsDir() && (pr.dir == "." || r == pr.dir || strings.HasPrefix(r, pr.dir+"/")) {
			return true
		}
	}
	return false
}

func (e *runner) rulesToRun() []*rules.Rule {
	if e.opts.Rules != nil {
		return e.opts.Rules
	}
	var out []*rules.Rule
	for _, r := range rules.All() {
		if !r.DefaultOff {
			out = append(out, r)
		}
	}
	return out
}

// runRule runs one rule on one project, turning a panic into an MCP000
// finding so the rest of the scan goes on.
func (e *runner) runRule(r *rules.Rule, pass *rules.Pass, dir string) {
	defer func() {
		if v := recover(); v != nil {
			e.fileError(dir, nil, 0, fmt.Sprintf("internal error in rule %s: %v\n%s", r.Code, v, debug.Stack()))
			e.setVolatile()
		}
	}()
	r.Run(pass)
}

// loadModules parses the project's Python files that can matter: the seeds
// (files that mention MCP or a configured handler decorator) and, from them,
// every project module they import or call into, transitively. Other files
// cannot hold or reach a handler.
func (e *runner) loadModules(pr *project, names *moduleNames) []*pyast.Module {
	var (
		mods   []*pyast.Module
		loaded = map[string]bool{}
		queue  []string
	)
	srcs := map[string][]byte{}
	for _, f := range pr.pyFiles {
		src, err := e.read(f)
		if err != nil {
			e.fileError(f, nil, 0, readError(err))
			if tl := (*safeio.TooLargeError)(nil); errors.As(err, &tl) {
				e.skip(f, readError(err))
			}
			loaded[f] = true
			continue
		}
		srcs[f] = src
	}
	graph := newImportGraph(pr.pyFiles, srcs, names, e.opts.HandlerDecorators, func(f string) ([]string, bool) {
		return e.importLinesOf(f, srcs[f], names.name(f))
	})
	admit := func(f string) {
		for _, g := range graph.component(f) {
			if !loaded[g] {
				loaded[g] = true
				queue = append(queue, g)
			}
		}
	}
	for _, f := range pr.pyFiles {
		if srcs[f] == nil || loaded[f] {
			continue
		}
		// The overlay holds the files a fix edited: the re-analysis parses
		// them whatever their imports, to check the edit.
		_, edited := e.opts.Overlay[f]
		if pr.script || e.opts.ReportUnreachable || graph.seed[f] || edited {
			admit(f)
		}
	}
	// Entry points ([project.scripts]) run registration functions.
	for _, q := range e.entryPoints(pr) {
		for ref := q; ref != ""; ref = ref[:max(strings.LastIndexByte(ref, '.'), 0)] {
			for _, f := range names.files(ref) {
				if !loaded[f] && srcs[f] != nil {
					admit(f)
				}
			}
		}
	}
	// Parsing can find more than import lines say (pkg.sub.f() after
	// "import pkg"): admit what the parsed modules reference, with the
	// import-line component of each (its importers can call into it).
	for len(queue) > 0 {
		batch := e.parseAll(queue, srcs, names)
		queue = nil
		for _, p := range batch {
			mods = append(mods, p.m)
			for _, ref := range p.refs {
				for _, f := range names.files(ref) {
					if !loaded[f] && srcs[f] != nil {
						admit(f)
					}
				}
			}
		}
	}
	for _, f := range pr.pyFiles {
		if !loaded[f] {
			e.skip(f, prefilterSkip)
		}
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods
}

// prefilterSkip is why a Python file no import connects to the framework is
// not parsed.
const prefilterSkip = "not parsed: no import statement of it, or of the files it imports or that import it, names mcp, fastmcp or a configured registration decorator (read without parsing, as Python's tokenizer delimits statements)"

// commentMarkers make the engine keep a parsed file's comment ranges.
var commentMarkers = [][]byte{[]byte("mcplint"), []byte("noqa"), []byte("NOQA")}

func containsAny(src []byte, tokens [][]byte) bool {
	for _, t := range tokens {
		if len(t) > 0 && bytes.Contains(src, t) {
			return true
		}
	}
	return false
}

// parsedModule is a parsed file and the modules it references
// (referencedModules).
type parsedModule struct {
	m    *pyast.Module
	refs []string
}

// parseAll parses files on a pool of opts.Jobs goroutines, and finds in the
// same workers the modules each one references (the project's analysis
// after them runs on one goroutine).
func (e *runner) parseAll(files []string, srcs map[string][]byte, names *moduleNames) []parsedModule {
	out := make([]parsedModule, len(files))
	parallel(len(files), e.opts.Jobs, func(i int) {
		out[i] = e.parseOne(files[i], srcs[files[i]], names.name(files[i]))
	})
	res := out[:0]
	for _, p := range out {
		if p.m != nil {
			res = append(res, p)
		}
	}
	if ps := e.ps; ps != nil && ps.parsed != nil {
		ps.mu.Lock()
		for _, p := range res {
			ps.parsed[p.m.Path] = p
		}
		ps.mu.Unlock()
	}
	return res
}

// parseOne parses one file and finds the modules it references, or takes
// both from the project's prior analysis (projState.prior) when that parsed
// the same bytes under the same module name: a Module is not changed by
// the analyses that read it, so the one parsed then is the one a parse now
// would give. Either way it reports what the parse says of the file
// (MCP000 for a syntax error, ...) into this analysis.
func (e *runner) parseOne(p string, src []byte, name string) (pm parsedModule) {
	defer func() {
		if v := recover(); v != nil {
			e.fileError(p, src, 0, fmt.Sprintf("internal error while parsing: %v", v))
			e.setVolatile()
			pm = parsedModule{}
		}
	}()
	e.counts.parsed.Add(1)
	if prior, ok := e.priorModule(p, name, src); ok {
		pm = prior
	} else {
		if c := e.opts.Parses; c != nil {
			c.Add(1)
		}
		m, err := pyast.ParseLimits(p, name, src, e.opts.limits().Parse)
		var tc *pyast.TooComplexError
		if errors.As(err, &tc) && tc.What == "cpu" {
			e.setVolatile() // the machine's load decides it
		}
		if err != nil {
			off := 0
			if tc != nil {
				off = min(tc.Offset, len(src)) // where the parser gave up
				e.skip(p, "not analysed: "+err.Error())
			}
			e.fileError(p, src, off, err.Error())
			return parsedModule{}
		}
		pm = parsedModule{m, referencedModules(m)}
	}
	m := pm.m
	// Other spellings of noqa are rare; the suppression stage lexes those
	// files itself.
	if containsAny(src, commentMarkers) {
		var spans [][2]int
		for c := range m.Nodes("comment") {
			spans = append(spans, [2]int{int(c.StartByte()), int(c.EndByte())})
		}
		e.resMu.Lock()
		if e.res.Comments == nil {
			e.res.Comments = map[string][][2]int{}
		}
		e.res.Comments[p] = spans
		e.resMu.Unlock()
	}
	for _, se := range m.SyntaxErrors() {
		e.fileError(p, src, se.Offset, se.Msg)
	}
	return pm
}

// referencedModules returns the dotted names a module imports or calls
// through, each with every prefix, so that "import pkg" + "pkg.sub.f()"
// reaches pkg.sub.
func referencedModules(m *pyast.Module) []string {
	seen := map[string]bool{}
	var out []string
	add := func(q string) {
		for q != "" {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
			i := strings.LastIndexByte(q, '.')
			if i < 0 {
				break
			}
			q = q[:i]
		}
	}
	for _, kind := range []string{"import_statement", "import_from_statement"} {
		for n := range m.Nodes(kind) {
			for _, q := range m.ImportTargets(n) {
				add(q)
			}
		}
	}
	for n := range m.Nodes("call") {
		for _, q := range m.Resolve(pyast.Callee(n)) {
			add(q)
		}
	}
	return out
}
