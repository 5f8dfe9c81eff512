package engine

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// MayHaveDirective reports whether a file's bytes can hold a suppression
// comment mcplint reads: they mention "mcplint", or "noqa" in any case other
// than as "noqa:" followed by a list of codes none of which is an MCP code
// ("# noqa: F401, E501" is other linters', and mcplint reads no more of it
// than that: suppress.parseNoqaList). A blanket "noqa" counts (mcplint notes
// that it suppresses nothing). The suppression stage lexes only such files,
// and a warm run reads no other file for it.
func MayHaveDirective(src []byte) bool {
	if bytes.Contains(src, []byte("mcplint")) {
		return true
	}
	for i := 0; ; i++ {
		j := indexFold(src[i:], "noqa")
		if j < 0 {
			return false
		}
		i += j
		if !foreignNoqa(src[i+len("noqa"):]) {
			return true
		}
	}
}

// foreignNoqa reports whether rest, what follows a "noqa", is ":" and a
// code list (codes of letters then digits, separated by spaces, tabs and
// commas) naming no MCP code: then the comment is other tools' alone. The
// list ends where suppress.parseNoqaList's does, at the first word that is
// not a code; what follows is the reason.
func foreignNoqa(rest []byte) bool {
	k := 0
	for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t' || rest[k] == '\f' || rest[k] == '\r') { // regexp's \s on one line
		k++
	}
	if k == len(rest) || rest[k] != ':' {
		return false // a blanket noqa, or not a directive (counted)
	}
	k++
	for {
		for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t' || rest[k] == ',') {
			k++
		}
		start := k
		for k < len(rest) && isASCIILetter(rest[k]) {
			k++
		}
		letters := k
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if letters == start || k == letters || k < len(rest) && (isASCIILetter(rest[k]) || rest[k] >= '0' && rest[k] <= '9') {
			return true // not a code: the list has ended with no MCP code in it
		}
		if bytes.EqualFold(rest[start:letters], []byte("mcp")) {
			return false // (counted also where the comment ends right after it)
		}
		if k < len(rest) && rest[k] != ' ' && rest[k] != '\t' && rest[k] != ',' {
			return true // the list ends after this code
		}
	}
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// indexFold returns the index of the first word (lower-case ASCII) in src,
// in any case, or -1; it does not copy src (every scanned file goes
// through it).
func indexFold(src []byte, word string) int {
	first := string([]byte{word[0], word[0] - 'a' + 'A'})
	for i := 0; i+len(word) <= len(src); i++ {
		j := bytes.IndexAny(src[i:len(src)-len(word)+1], first)
		if j < 0 {
			return -1
		}
		i += j
		if bytes.EqualFold(src[i:i+len(word)], []byte(word)) {
			return i
		}
	}
	return -1
}

// projState is what one project's analysis has read: the bytes of its files
// (each read once, by gather), what they are, and the other files the
// analysis read (for the cache).
type projState struct {
	mu       sync.Mutex
	srcs     map[string][]byte
	facts    map[string]*fileEntry
	reads    map[string]readRecord
	volatile bool // a result that depends on the machine (a CPU-time limit, a panic): not cached
	// parsed collects the modules the analysis parsed, by path, when a
	// speculative analysis may follow (Options.Speculate); prior holds
	// those a speculative analysis may reuse (see parseOne).
	parsed, prior map[string]parsedModule
	// lines and priorLines are the same for the import lines of the files
	// (importLinesOf).
	lines, priorLines map[string]importRefs
}

// gather learns what each of paths holds: from the cache when the file's
// stat signature is unchanged (no read), else by reading it (its bytes are
// kept in the project's state for the analysis).
func (e *runner) gather(paths []string, ps *projState) {
	type got struct {
		f   *fileEntry
		src []byte
	}
	paths = dedupe(paths) // setup.py is a dependency file and a module
	out := make([]got, len(paths))
	parallel(len(paths), e.opts.Jobs, func(i int) {
		f, src := e.fact(paths[i])
		out[i] = got{f, src}
	})
	for i, p := range paths {
		ps.facts[p] = out[i].f
		if out[i].src != nil {
			ps.srcs[p] = out[i].src
		}
	}
}

// fact returns what one file holds, and its bytes when it had to read them.
func (e *runner) fact(p string) (*fileEntry, []byte) {
	var sig fileSig
	_, over := e.opts.Overlay[p]
	if !over && e.refused[p] == nil {
		if st, err := os.Stat(filepath.FromSlash(p)); err == nil {
			sig = sigOf(st)
			if e.cache != nil && sig.trusted(e.start) {
				if old := e.cache.file(e.state, p); old != nil && old.Sig == sig {
					f := *old
					e.record(p, &f)
					return &f, nil
				}
			}
		}
	}
	b, err := e.readRaw(p)
	f := e.describe(p, b, err)
	if sig.trusted(e.start) {
		f.Sig = sig
	}
	if e.cache != nil && !over {
		if old := e.cache.file(e.state, p); old.same(f) {
			f.Comments, f.HasComments = old.Comments, old.HasComments
		}
	}
	e.record(p, f)
	if err != nil {
		return f, nil
	}
	return f, b
}

// describe makes the entry of bytes read (or of a read error).
func (e *runner) describe(p string, b []byte, err error) *fileEntry {
	f := &fileEntry{}
	if err != nil {
		f.Err = readError(err)
		return f
	}
	if e.cache != nil {
		f.Hash = sha256.Sum256(b)
	}
	if k, ok := workspace.Classify(p); ok && k == workspace.Python {
		f.Script = deps.HasScriptBlock(b)
	}
	f.Marks = MayHaveDirective(b)
	return f
}

// record remembers a file's entry for this run: for the suppression stage
// (which files can hold a directive, and their comments) and the cache.
func (e *runner) record(p string, f *fileEntry) {
	e.runFacts.Store(p, f)
	e.resMu.Lock()
	defer e.resMu.Unlock()
	if !f.Marks && f.Err == "" {
		e.res.markerless[p] = true
	} else {
		delete(e.res.markerless, p)
	}
	if f.HasComments {
		if e.res.Comments == nil {
			e.res.Comments = map[string][][2]int{}
		}
		e.res.Comments[p] = f.Comments
	}
}

// projectRun is one project analysed (or taken from the cache).
type projectRun struct {
	sum  *ProjectSummary
	sink *sink
}

// analyseAll reads the files of a project as the walk grouped them, splits
// off its PEP 723 scripts (projects of their own) and analyses each. The
// directory project is nil when it has no dependency file of its own and
// every Python file is a script.
func (e *runner) analyseAll(pr *project) (dir *projectRun, scripts []scriptRun) {
	ps := &projState{srcs: map[string][]byte{}, facts: map[string]*fileEntry{}}
	e.gather(append(append([]string(nil), pr.depFiles...), pr.pyFiles...), ps)
	rest := &project{dir: pr.dir, depFiles: pr.depFiles, walked: pr.walked, why: pr.why, membersJoined: pr.membersJoined, joined: pr.joined, codeElsewhere: pr.codeElsewhere}
	for i, f := range pr.pyFiles {
		if ps.facts[f].Script {
			sp := &project{dir: workspace.Dir(f), pyFiles: []string{f}, script: true}
			sps := &projState{srcs: map[string][]byte{}, facts: map[string]*fileEntry{f: ps.facts[f]}}
			if b, ok := ps.srcs[f]; ok {
				sps.srcs[f] = b
			}
			scripts = append(scripts, scriptRun{order: pr.order[i], run: e.analyse(sp, sps)})
			continue
		}
		rest.pyFiles = append(rest.pyFiles, f)
	}
	for _, s := range scripts {
		if s.run != nil && s.run.sum != nil && len(s.run.sum.Handlers) > 0 {
			rest.scriptServer = true
		}
	}
	if len(rest.pyFiles) > 0 || pr.walked {
		dir = e.analyse(rest, ps)
	}
	return dir, scripts
}

type scriptRun struct {
	order int
	run   *projectRun
}

// analyse analyses one project into its own sink, or takes its analysis
// from the cache when every file it read is unchanged.
func (e *runner) analyse(pr *project, ps *projState) *projectRun {
	pe := *e
	pe.sink = &sink{}
	pe.ps = ps
	run := &projectRun{sink: pe.sink}
	if e.cache == nil {
		run.sum = pe.runProject(pr)
		return run
	}
	key := e.projectKey(pr, ps.facts)
	if ent := e.cache.project(e.state, key); ent != nil {
		if sum := pe.reuse(pr, ent); sum != nil {
			e.use(key)
			// An analysis made ahead for this run counts as this run's
			// (the files its analysis parsed or reused from the previous
			// analysis are those an analysis now would parse); reused once,
			// it is an entry as any other.
			if parsed, ahead := e.cache.takeAhead(ent); ahead {
				e.counts.analysed.Add(1)
				e.counts.parsed.Add(int64(parsed))
			} else {
				e.counts.reused.Add(1)
			}
			run.sum = sum
			return run
		}
		pe.sink = &sink{}
		run.sink = pe.sink
	}
	// Read every file of the project now (gather trusted some without
	// reading): the analysis reads them all, and the key must be that of
	// the bytes analysed, even if a file changed since it was stat'ed.
	for _, list := range [][]string{pr.depFiles, pr.pyFiles} {
		for _, p := range list {
			if _, ok := ps.srcs[p]; ok || ps.facts[p].Err != "" {
				continue
			}
			b, err := e.readRaw(p)
			f := e.describe(p, b, err)
			if !f.same(ps.facts[p]) {
				e.record(p, f)
			}
			ps.facts[p] = f
			if err == nil {
				ps.srcs[p] = b
			}
		}
	}
	key = e.projectKey(pr, ps.facts)
	ps.reads = map[string]readRecord{}
	if e.opts.Speculate != nil {
		ps.parsed, ps.lines = map[string]parsedModule{}, map[string]importRefs{}
	}
	run.sum = pe.runProject(pr)
	e.counts.analysed.Add(1)
	if ps.volatile {
		return run
	}
	e.cache.putProject(e.state, key, newProjectEntry(ps, pe.sink.diags, run.sum))
	e.use(key)
	if ps.parsed != nil {
		pe.speculate(pr, ps)
	}
	return run
}

// newProjectEntry is the cache entry of an analysis.
func newProjectEntry(ps *projState, diags []rules.Diagnostic, sum *ProjectSummary) *projectEntry {
	ent := &projectEntry{Diags: append([]rules.Diagnostic(nil), diags...), Handlers: packHandlers(sum.Handlers), Guard: sum.Guard, Skipped: sum.Skipped, Modules: sum.Modules, CodeMCP1: sum.codeMCP1,
		Unresolved: sum.Unresolved, UnresolvedMatter: sum.UnresolvedMatter, Versions: recordVersions(sum.deps)}
	ent.handlersOnce.Do(func() { ent.handlers, ent.handlersOK = sum.Handlers, true })
	for _, r := range ps.reads {
		ent.Extra = append(ent.Extra, r)
	}
	sort.Slice(ent.Extra, func(i, j int) bool { return ent.Extra[i].Path < ent.Extra[j].Path })
	return ent
}

func (e *runner) use(key [32]byte) {
	e.cache.mu.Lock()
	e.usedProjects[key] = true
	e.cache.mu.Unlock()
}

// reuse replays a cached analysis: nil when a file it read outside the
// project changed, or a file with a finding no longer holds what the
// finding was computed from.
func (e *runner) reuse(pr *project, ent *projectEntry) *ProjectSummary {
	ps := e.ps
	hs, ok := ent.handlerList()
	if !ok {
		return nil
	}
	for _, r := range ent.Extra {
		if e.extraRecord(r.Path) != r {
			return nil
		}
	}
	// The findings' files, as the findings saw them (Sources): the bytes
	// must be those hashed, or the offsets could be another file's.
	seen := map[string][]byte{}
	for _, d := range ent.Diags {
		f := ps.facts[d.Path]
		if f == nil || f.Err != "" {
			continue
		}
		if _, ok := seen[d.Path]; ok {
			continue
		}
		b, ok := ps.srcs[d.Path]
		if !ok {
			var err error
			if b, err = e.readRaw(d.Path); err != nil || sha256.Sum256(b) != f.Hash {
				return nil
			}
			ps.srcs[d.Path] = b
		}
		seen[d.Path] = b
	}
	// The project's versions: what the reports print of them is in the
	// entry (ProjectSummary.Describe, VersionSources), so no dependency
	// file is read for them; Deps, for a caller that wants the whole
	// reading, reads the files when asked. An entry without that record
	// reads them when a report asks, from the bytes hashed now (the
	// analysis's). No Python is parsed unless asked (setup.py), and their
	// errors are among the findings.
	depSrcs := map[string][]byte{}
	for _, p := range pr.depFiles {
		if ent.Versions != nil {
			break
		}
		b, ok := ps.srcs[p]
		if !ok {
			var err error
			if b, err = e.readRaw(p); err != nil || sha256.Sum256(b) != ps.facts[p].Hash {
				if ps.facts[p].Err == "" {
					return nil
				}
				continue
			}
		}
		depSrcs[p] = b
	}
	for _, d := range ent.Diags {
		e.add(d)
		e.keepSeen(d.Path, seen)
	}
	top := *e
	top.ps = &projState{srcs: depSrcs, facts: map[string]*fileEntry{}}
	return &ProjectSummary{Dir: pr.dir, Handlers: hs, Guard: ent.Guard, Skipped: ent.Skipped, Modules: ent.Modules, Unresolved: ent.Unresolved, UnresolvedMatter: ent.UnresolvedMatter, codeMCP1: ent.CodeMCP1, Joined: pr.joined, recorded: ent.Versions,
		loadDeps: func(style bool) *deps.Project {
			proj := top.loadDeps(pr, style)
			proj.SetCodeNeedsMCP1(ent.CodeMCP1)
			return proj
		}}
}

// extraRecord is what a read of p outside the project gives now, read
// once a run.
func (e *runner) extraRecord(p string) readRecord {
	if e.extraRecords != nil {
		if r, ok := e.extraRecords.Load(p); ok {
			return r.(readRecord)
		}
	}
	b, err := e.readRaw(p)
	r := e.readRecordOf(p, b, err)
	if e.extraRecords != nil {
		e.extraRecords.Store(p, r)
	}
	return r
}

// readRecordOf describes one read for the cache.
func (e *runner) readRecordOf(p string, b []byte, err error) readRecord {
	if err != nil {
		return readRecord{Path: p, Err: readError(err)}
	}
	return readRecord{Path: p, Hash: sha256.Sum256(b)}
}

func dedupe(paths []string) []string {
	seen := make(map[string]bool, len(paths))
	out := paths[:0]
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// runCounts says how much of a run was analysed and how much reused.
type runCounts struct {
	analysed, reused, parsed atomic.Int64
}
