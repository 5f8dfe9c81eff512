// Package engine runs mcplint end to end on a set of paths: it walks the
// workspace, groups files into projects, reads each project's dependencies,
// parses the Python files that can matter, finds handlers, runs the rules and
// passes the diagnostics through the processing pipeline (suppressions,
// selection, baseline, severity, sort).
//
// Renderers (report, sarif) and the fixer read a Result; they never analyse.
package engine

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// Options controls a run.
type Options struct {
	Jobs int // workers for parsing, projects and the per-module parts of a project's handler graph; <= 0 means the CPU count

	// Versions to assume for projects whose files declare nothing.
	AssumeMCP, AssumeFastMCP string

	// ReportUnreachable reports code rules in code no handler reaches, as notes.
	ReportUnreachable bool
	// ShowSafe reports findings in projects whose versions cannot crash
	// (mcp >= 2 only) as notes instead of dropping them.
	ShowSafe bool

	// HandlerDecorators are extra registration decorators (qualified names)
	// of in-house frameworks.
	HandlerDecorators []string

	// Overlay replaces file contents read from disk (path as reported ->
	// bytes). The fixer uses it to check an edit before writing.
	Overlay map[string][]byte

	// Walk controls which files the workspace visits.
	Walk WalkOptions

	// Rules to run; nil means every rule that is on by default.
	Rules []*rules.Rule

	// Limits bound the work spent on one file or one function; nil means
	// DefaultLimits.
	Limits *Limits

	// MaxSame is how many findings of one kind (rule, file, message,
	// anchor, exposure, severity) a project's analysis keeps in full: the
	// next are kept as their place alone (Diagnostic.More), so that the
	// memory, the cache and the time of a run stay in proportion to what
	// the outputs show (the display limit, --max-same-findings) and not to
	// a repeated line. 0 keeps every finding in full.
	MaxSame int

	// Cache, when set, keeps analyses across runs (and across the fix
	// rounds of one run): a project whose files did not change is not
	// analysed again.
	Cache *Cache

	// Processors run in order on the diagnostics after the rules, before
	// severity and sorting (suppressions, select/ignore, baseline, ...).
	Processors []Processor

	// Speculate, with a Cache, prepares the next run (the fixer's next
	// round): after a project's analysis it is given the project's
	// findings as a run reports them (processed, sorted) and the bytes the
	// analysis read, and returns the contents it will give the next run
	// for some of the project's files (nil: none). The project is then
	// analysed again at once with them, while the parsed modules of the
	// files they leave unchanged are still in memory and reused, and that
	// analysis goes into the Cache, where the next run finds it by the
	// contents' hashes like any other entry: a wrong guess costs an
	// analysis, never a wrong result. Called from several goroutines; not
	// called when a processor is not a LocalProcessor.
	Speculate func(diags []rules.Diagnostic, read func(path string) ([]byte, error)) map[string][]byte
	// Parses, when set, counts the Python files the run parses, its
	// analyses made ahead (Speculate) included: a module such an analysis
	// takes from the one before it is not parsed again. Runs may share one
	// (the fixer's rounds do, through their Options).
	Parses *atomic.Int64
}

// Limits bound the work spent on one file or one function, in steps (not
// wall time), so that a hostile or generated input costs a bounded time and
// memory: past them the file or function is reported as MCP000 "too complex
// to analyse fully" and the scan goes on (configuration: [tool.mcplint.limits]).
type Limits struct {
	// Parse bounds the parsing of each Python file (setup.py too).
	Parse pyast.Limits
	// FunctionSteps bounds the cancellation-flow analysis of each function
	// (checkpoint.Analyzer.SetBudget); 0 means no limit.
	FunctionSteps int64
}

// DefaultLimits are the limits of a run whose Options.Limits is nil.
var DefaultLimits = Limits{Parse: pyast.DefaultLimits, FunctionSteps: checkpoint.DefaultFunctionSteps}

func (o *Options) limits() Limits {
	if o.Limits == nil {
		return DefaultLimits
	}
	return *o.Limits
}

// WalkOptions controls the workspace walk.
type WalkOptions struct {
	// Exclude returns true for a path (slash, relative to the scan root given)
	// that must not be visited.
	Exclude func(path string, isDir bool) bool
	// NoGitignore turns off .gitignore handling.
	NoGitignore bool
	// IncludeHidden visits hidden directories.
	IncludeHidden bool
	// Tracked, when set, is the only files read (workspace.Tracked, the
	// --tracked-only flag): the walk skips the others, and an include or a
	// style file that git does not track is not read either.
	Tracked *workspace.Tracked
}

// Processor is one stage of result processing (golangci-lint's shape).
type Processor interface {
	Name() string
	Process(res *Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error)
}

// LocalProcessor is a Processor whose verdict on the findings of some files
// depends on those files only (their suppression comments), and that keeps
// no state across calls: run on one project's findings with a Result of the
// project's files, it keeps, changes and adds for them what it does in the
// whole run. Options.Speculate needs every processor to be one.
type LocalProcessor interface {
	Processor
	Local()
}

// Result is everything a run found.
type Result struct {
	Diagnostics []rules.Diagnostic
	Projects    []*ProjectSummary
	Files       int // files visited (Python and dependency files)
	Parsed      int // Python files parsed
	// Suppressed counts findings removed by suppressions, per code.
	Suppressed map[string]int
	// Dropped counts findings removed by other processors (baseline, ...), per processor.
	Dropped map[string]int
	// Sources holds the contents of every file that has a diagnostic (and of
	// every file a processor asked for), for code frames and fix diffs.
	Sources map[string][]byte
	// Comments holds the byte ranges of the comments of parsed Python files
	// that mention "mcplint" or "noqa", so that the suppression stage need
	// not parse them again.
	Comments map[string][][2]int
	// Paths lists every file visited (Python and dependency files), sorted.
	Paths []string
	// Roots are the scan roots as given (display paths).
	Roots []string
	// Untracked lists the files the walk did not read because git does not
	// track them (WalkOptions.Tracked), for --verbose.
	Untracked []string

	// Analysed and Reused count the projects this run analysed and those
	// whose analysis it took from the cache; ParsedNow counts the Python
	// files it parsed (Parsed counts those the analyses parsed, cached
	// or not, for the reports). A project analysed ahead for this run
	// (Options.Speculate) counts as analysed by it, with the files that
	// analysis parsed or took parsed from the one before it.
	Analysed, Reused, ParsedNow int

	// markerless are the files known to hold no suppression comment.
	markerless map[string]bool
	// lines are the line indexes Refold made.
	lines map[string]*pyast.LineIndex

	read func(string) ([]byte, error)
}

// Read returns a file's contents as the run saw them (the overlay first,
// then the disk), and remembers it in Sources. A dependency file in UTF-16
// or UTF-32 is the UTF-8 text its analysis read (deps.Decode), so that its
// code frames, fingerprints and suppression comments are those of its
// findings' lines.
func (r *Result) Read(path string) ([]byte, error) {
	if b, ok := r.Sources[path]; ok {
		return b, nil
	}
	read := r.read
	if read == nil { // a Result built by hand, as renderer tests do
		read = ReadFile
	}
	b, err := read(path)
	if err == nil {
		b = asAnalysed(path, b)
		if r.Sources == nil {
			r.Sources = map[string][]byte{}
		}
		r.Sources[path] = b
	}
	return b, err
}

// asAnalysed returns the text the analysis read from file path's bytes b: a
// dependency file's decoded from UTF-16 or UTF-32 (deps.Decode), b itself
// otherwise.
func asAnalysed(path string, b []byte) []byte {
	if deps.IsDependencyPath(path) {
		b, _ = deps.Decode(b)
	}
	return b
}

// Markerless reports whether the run knows that a file it read holds no
// suppression comment (MayHaveDirective is false for its bytes), so that
// the suppression stage need not read it.
func (r *Result) Markerless(path string) bool { return r.markerless[path] }

// ProjectSummary describes one project, for reports.
type ProjectSummary struct {
	Dir      string
	Handlers []HandlerSummary
	Modules  int // Python files parsed
	// Guard is the respond/cancel guard that runs before the server starts,
	// when the project has one (its code findings are then notes).
	Guard *GuardSummary
	// Joined says what the project model (layout.go) joined into the
	// project from other folders, and why: a workspace member, a compiled
	// requirements file, a nested package's code.
	Joined []string
	// Skipped are the project's Python files the analysis did not parse,
	// and why (--verbose lists them), by path.
	Skipped []Skip
	// Unresolved are the calls in handler reach the analysis could not
	// resolve, and the registrations whose handler it cannot tell
	// (handlers.UnresolvedCall), by file and line; UnresolvedMatter
	// says whether those it could not follow can hide a crash here (see
	// NotFollowed).
	Unresolved       []UnresolvedCall
	UnresolvedMatter bool

	codeMCP1 string // what ties the code to mcp 1.x (deps.Project.SetCodeNeedsMCP1)

	// recorded is what the reports print of the dependency files, kept in
	// the cache entry of an analysis taken from the cache: a warm run
	// prints it without reading (or hashing) those files again.
	recorded *versionFacts

	// mu guards what Deps and Versions read on first use.
	mu       sync.Mutex
	deps     *deps.Project
	versions *deps.Project                  // what Versions read while deps was not read
	loadDeps func(style bool) *deps.Project // for an analysis taken from the cache, until Deps reads
}

// UnresolvedCall is a call in handler reach whose callee the analysis
// could not tell (handlers.UnresolvedCall).
type UnresolvedCall struct {
	Path   string
	Line   int
	Callee string // the callee's text, cut to a line
	// Matching counts the project defs that match it by name and arity;
	// Followed says whether the analysis followed it to each (at most
	// handlers.MaxCandidates of them, and the callee has a name).
	Matching   int
	Followed   bool
	Candidates []string // the qualified names of the defs it was followed to
	// Registration marks a registration call whose handler the analysis
	// cannot tell (handlers.UnresolvedCall.Registration).
	Registration bool
}

// NotFollowed counts the unresolved calls the analysis could not follow
// that could hide a crash: none when no code rule can crash the
// project's versions, or a respond/cancel guard covers the project
// (UnresolvedMatter false).
func (p *ProjectSummary) NotFollowed() int {
	if !p.UnresolvedMatter {
		return 0
	}
	n := 0
	for _, u := range p.Unresolved {
		if !u.Followed {
			n++
		}
	}
	return n
}

// Deps is what the project's dependency files say. For an analysis taken
// from the cache they are read (not analysed again) on first use, since
// only some reports need them.
func (p *ProjectSummary) Deps() *deps.Project {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.deps == nil && p.loadDeps != nil {
		p.deps, p.versions, p.loadDeps = p.loadDeps(true), nil, nil
	}
	return p.deps
}

// Versions is what the project's dependency files say of the packages it
// tracks (Deps without the formatter settings, which only fixes read): a
// report of an analysis taken from the cache reads no ruff or isort
// configuration for it.
func (p *ProjectSummary) Versions() *deps.Project {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.deps != nil || p.loadDeps == nil {
		return p.deps
	}
	if p.versions == nil {
		p.versions = p.loadDeps(false)
	}
	return p.versions
}

// Describe returns what the project's dependency files say about pkg
// (deps.Project.Describe), "" when the project has no dependency
// information. An analysis taken from the cache answers for the packages
// of deps.VersionSourcePackages from its cache entry.
func (p *ProjectSummary) Describe(pkg string) string {
	if r := p.recorded; r != nil {
		if s, ok := r.Described[pkg]; ok {
			return s
		}
	}
	v := p.Versions()
	if v == nil {
		return ""
	}
	return v.Describe(pkg)
}

// VersionSources returns the project's dependency files in reading order,
// with what each decided (deps.Project.VersionSources).
func (p *ProjectSummary) VersionSources() []deps.VersionSource {
	if r := p.recorded; r != nil {
		return r.Sources
	}
	return p.Versions().VersionSources()
}

// DepNotes returns what the project's dependency files had read but
// skipped (deps.Project.Notes).
func (p *ProjectSummary) DepNotes() []string {
	if r := p.recorded; r != nil {
		return r.Notes
	}
	if d := p.Deps(); d != nil {
		return d.Notes
	}
	return nil
}

// versionFacts is what reports print of a project's dependency files
// (ProjectSummary.Describe, VersionSources, DepNotes), kept in the
// project's cache entry.
type versionFacts struct {
	Described map[string]string // by package of deps.VersionSourcePackages
	Sources   []deps.VersionSource
	Notes     []string
}

// recordVersions is what the reports print of proj.
func recordVersions(proj *deps.Project) *versionFacts {
	if proj == nil {
		return nil
	}
	r := &versionFacts{Described: map[string]string{}, Sources: proj.VersionSources(), Notes: slices.Clone(proj.Notes)}
	for _, pkg := range deps.VersionSourcePackages {
		r.Described[pkg] = proj.Describe(pkg)
	}
	return r
}

// restore undoes what the cache file's encoding loses: gob writes no empty
// slice, and a version source that decides nothing says so with [].
func (r *versionFacts) restore() {
	for i := range r.Sources {
		if r.Sources[i].Decides == nil {
			r.Sources[i].Decides = []string{}
		}
	}
	if r.Described == nil {
		r.Described = map[string]string{}
	}
}

// WithDeps sets what Deps returns (for summaries made by hand, as in
// renderer tests).
func (p *ProjectSummary) WithDeps(d *deps.Project) *ProjectSummary {
	p.deps = d
	return p
}

// Skip is a file the analysis did not parse, and why: no import leads it to
// the framework (the prefilter), or a per-file limit (its size, its parse).
type Skip struct {
	Path, Why string
}

// GuardSummary says where a project's respond/cancel guard is installed.
type GuardSummary struct {
	Path string
	Line int
}

// HandlerSummary is a handler found, for reports.
type HandlerSummary struct {
	Path      string
	Line      int
	Name      string // qualified function name
	Kind      string
	Framework handlers.Framework
	Async     bool
}

// Source returns the bytes of a file with diagnostics.
func (r *Result) Source(path string) []byte { return r.Sources[path] }
