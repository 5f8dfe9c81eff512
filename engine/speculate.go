package engine

import (
	"bytes"
	"path"
	"sort"
	"sync"

	"github.com/mcplint/mcplint/rules"
)

// speculate asks Options.Speculate what the next run will give the project
// pr just analysed (e, with its sink and its state ps), and analyses pr
// again with those contents, reusing the modules of the first analysis for
// the files they leave unchanged (parseOne): the fixer's next round then
// finds the analysis in the cache instead of parsing every file of the
// project again. The analysis is keyed, as every entry, by the contents it
// read, so a guess that turns out wrong is never used. Neither analysis'
// modules outlive it: memory stays bounded by the project.
func (e *runner) speculate(pr *project, ps *projState) {
	prior := ps.parsed
	ps.parsed = nil
	defer func() { ps.lines = nil }()
	for _, p := range e.opts.Processors {
		if _, ok := p.(LocalProcessor); !ok {
			return
		}
	}
	read := func(p string) ([]byte, error) {
		ps.mu.Lock()
		b, ok := ps.srcs[p]
		ps.mu.Unlock()
		if ok {
			return b, nil
		}
		return e.readRaw(p)
	}
	diags, ok := e.reported(pr, ps, read)
	if !ok {
		return
	}
	next := e.guess(diags, read)
	if len(next) == 0 {
		return
	}
	overlay := make(map[string][]byte, len(e.opts.Overlay)+len(next))
	for p, b := range e.opts.Overlay {
		overlay[p] = b
	}
	sps := &projState{srcs: make(map[string][]byte, len(ps.srcs)), facts: make(map[string]*fileEntry, len(ps.facts)),
		reads: map[string]readRecord{}, prior: prior, parsed: map[string]parsedModule{}, priorLines: ps.lines}
	for p, b := range ps.srcs {
		sps.srcs[p] = b
	}
	for p, f := range ps.facts {
		sps.facts[p] = f
	}
	for p, b := range next {
		// Only the project's own files, as they are grouped now: a new
		// file, or one that becomes a PEP 723 script, can change which
		// project a file belongs to.
		old := ps.facts[p]
		if old == nil || old.Err != "" {
			return
		}
		f := e.describe(p, b, nil)
		if f.Script != old.Script {
			return
		}
		overlay[p], sps.srcs[p], sps.facts[p] = b, b, f
	}
	// The modules of the edited files cannot be reused: let them go before
	// their successors are parsed (when a fix edits every file, as many as
	// the project has), so that memory stays that of one analysis.
	for p := range next {
		delete(prior, p)
	}
	se := *e
	se.opts.Overlay = overlay
	se.opts.Speculate = nil
	se.sink = &sink{}
	se.ps = sps
	// Nothing of this analysis may reach the run's result: its own, thrown
	// away (the cache entry carries what a run needs).
	se.res = &Result{Roots: e.res.Roots, Sources: map[string][]byte{}, Suppressed: map[string]int{}, Dropped: map[string]int{}, markerless: map[string]bool{}}
	se.resMu = &sync.Mutex{}
	se.runFacts = &sync.Map{}
	se.extraRecords = &sync.Map{}
	se.usedProjects = map[[32]byte]bool{}
	se.counts = &runCounts{}
	key := se.projectKey(pr, sps.facts)
	if e.cache.project(e.state, key) != nil {
		return
	}
	sum := se.runProject(pr)
	if sps.volatile {
		return
	}
	ent := newProjectEntry(sps, se.sink.diags, sum)
	ent.ahead, ent.aheadParsed = true, int(se.counts.parsed.Load())
	e.cache.putProject(e.state, key, ent)
}

// guess calls Options.Speculate; a guess that panics is no guess (the
// analysis ahead is only an optimization: the caller's own call of the
// same code reports the problem).
func (e *runner) guess(diags []rules.Diagnostic, read func(string) ([]byte, error)) (next map[string][]byte) {
	defer func() {
		if recover() != nil {
			next = nil
		}
	}()
	return e.opts.Speculate(diags, read)
}

// reported returns the findings of the project's analysis as a run would
// report them: through the processors (each a LocalProcessor, given a
// Result of the project's files), without those no run shows, sorted.
func (e *runner) reported(pr *project, ps *projState, read func(string) ([]byte, error)) ([]rules.Diagnostic, bool) {
	res := &Result{Roots: e.res.Roots, Sources: map[string][]byte{}, Suppressed: map[string]int{}, Dropped: map[string]int{}, markerless: map[string]bool{}, read: read}
	res.Paths = dedupe(append(append([]string(nil), pr.depFiles...), pr.pyFiles...))
	sort.Strings(res.Paths)
	e.resMu.Lock()
	for _, p := range res.Paths {
		if f := ps.facts[p]; f != nil && !f.Marks && f.Err == "" {
			res.markerless[p] = true
		}
		if spans, ok := e.res.Comments[p]; ok {
			if res.Comments == nil {
				res.Comments = map[string][][2]int{}
			}
			res.Comments[p] = spans
		}
	}
	e.resMu.Unlock()
	out, err := e.finish(res, append([]rules.Diagnostic(nil), e.sink.diags...))
	return out, err == nil
}

// importRefs are the import lines of a file's bytes under a module name.
type importRefs struct {
	src  []byte
	name string
	refs []string
	ok   bool
}

// importLinesOf returns importLines of a project file: those the project's
// prior analysis found, when it read the same bytes under the same module
// name (see projState.priorLines).
func (e *runner) importLinesOf(f string, src []byte, name string) ([]string, bool) {
	ps := e.ps
	if ps != nil {
		if l, ok := ps.priorLines[f]; ok && l.name == name && bytes.Equal(l.src, src) {
			return l.refs, l.ok
		}
	}
	refs, ok := importLines(src, name, path.Base(f) == "__init__.py")
	if ps != nil && ps.lines != nil {
		ps.lines[f] = importRefs{src, name, refs, ok}
	}
	return refs, ok
}

// priorModule returns the module of p that the project's previous analysis
// parsed, when it parsed these very bytes under this module name.
func (e *runner) priorModule(p, name string, src []byte) (parsedModule, bool) {
	ps := e.ps
	if ps == nil || ps.prior == nil {
		return parsedModule{}, false
	}
	pm, ok := ps.prior[p]
	if !ok || pm.m.Name != name || !bytes.Equal(pm.m.Src, src) {
		return parsedModule{}, false
	}
	return pm, true
}
