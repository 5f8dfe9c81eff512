// Package rules is mcplint's analysis framework, in the shape of
// golang.org/x/tools/go/analysis: a Rule is a small declarative value with a
// Run function; Run reads a Pass (one project: its modules, handlers and
// resolved dependency versions) and reports Diagnostics, each with zero or
// more alternative Fixes made of byte-offset Edits.
//
// A rule reports; it never decides final severity or filtering. Those are
// pipeline stages (package engine). One file per rule, its doc next to it.
package rules

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// Severity of a reported diagnostic.
type Severity int

const (
	SeverityNone Severity = iota // not reported
	SeverityNote
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityNote:
		return "note"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "none"
}

// Applicability says when a fix may be applied automatically (ruff's terms).
type Applicability int

const (
	Safe        Applicability = iota // --fix applies it: only behaviour on the buggy path changes
	Unsafe                           // --unsafe-fixes applies it: it may change behaviour otherwise
	DisplayOnly                      // shown as advice, never applied
)

func (a Applicability) String() string {
	return [...]string{"safe", "unsafe", "display-only"}[a]
}

// Edit replaces Src[Start:End] of the file at Path with New. With Create
// set, the edit makes a new file whose contents are New (Start and End are
// 0); the fixer refuses it when the file exists.
type Edit struct {
	Path   string `json:"path"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	New    string `json:"new"`
	Create bool   `json:"create,omitempty"`
}

// Fix is one way to resolve a diagnostic. Several fixes on one diagnostic are
// alternatives, in order of preference; the fixer applies at most one (the
// first safe one, else with --unsafe-fixes the first unsafe one).
type Fix struct {
	Message       string
	Applicability Applicability
	Edits         []Edit // may span several files; empty for advice
	// Partial marks a fix that narrows the problem without removing it
	// (MCP001's floor raise within 1.x leaves the cancel crash): the fixer
	// then checks that the finding changed, not that it is gone.
	Partial bool
	// MovesToMCP2 marks a fix that moves the project to mcp 2.x (mcp>=2,<3,
	// fastmcp>=4,<5); NeedsMCP1 one that works only while the project stays
	// on 1.x (the respond/cancel guard imports RequestResponder, which mcp
	// 2.x does not have: after the move the server would not start). The
	// fixer never applies both to one project in a run: the move wins.
	MovesToMCP2, NeedsMCP1 bool
}

// EditsByFile groups the fix's edits by file, files in the order they first
// appear.
func (f *Fix) EditsByFile() (paths []string, byPath map[string][]Edit) {
	byPath = map[string][]Edit{}
	for _, e := range f.Edits {
		if _, ok := byPath[e.Path]; !ok {
			paths = append(paths, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	return paths, byPath
}

// Location is a range in a file, byte offsets with line/column positions.
type Location struct {
	Path  string // slash-separated, relative to the scan root when under it
	Start pyast.Position
	End   pyast.Position
}

// Related is a secondary location that explains a diagnostic.
type Related struct {
	Location
	Message string
}

// Diagnostic is one finding.
type Diagnostic struct {
	Code     string // "MCP101"
	Name     string // "uncancellable-thread-await"
	Location        // primary range
	Message  string
	Severity Severity // set by the engine from the rule and the project's versions
	Related  []Related
	Fixes    []Fix

	// Anchor names what the finding is about, independent of line numbers:
	// the qualified name of the enclosing function for code rules, the
	// package name for dependency rules. Baselines and new-from-rev use it.
	Anchor string
	// AnchorRange is the byte range of the anchor (the whole function or the
	// requirement line), for new-from-rev.
	AnchorStart, AnchorEnd int
	// Project is the project directory the finding belongs to.
	Project string
	// Exposure is the rule's verdict on the project's versions (see
	// Rule.Exposure); the engine turns it into Severity. A rule may set it
	// to No itself when the finding cannot happen in this project (a pin in
	// a project with no MCP server): the engine keeps that.
	Exposure deps.Tri
	// Unguardable marks a finding of a Guarded rule that the respond/cancel
	// guard does not close (MCP001 on an mcp that can be below 1.27.0: the
	// guard covers the cancel crash, not the transport-close one): the
	// engine keeps its severity in a guarded project.
	Unguardable bool
	// Suppression is set on a finding that a suppression comment matched,
	// kept only when the run asks for suppressed findings (SARIF
	// suppressions). Every other output skips such findings, and they never
	// set the exit code.
	Suppression *Suppression
	// More are the findings of the same kind as this one (the same rule,
	// file, message, anchor and exposure) that the run kept as their place
	// alone: past engine.Options.MaxSame findings of a kind in a file, the
	// display limit, a finding costs its place and no fixes (a file of a
	// million identical requirement lines is a million places, not a
	// million findings with their fixes). Each counts as a finding:
	// summaries and exit codes count them, suppressions, baselines and
	// changed-line filters decide each (engine.Refold), and every output
	// says how many there are and where. Nil for almost every finding.
	More Places
}

// Place is where a finding folded into another (Diagnostic.More) is: its
// range and its anchor's range in bytes, and the line it starts on.
type Place struct {
	Start, End, AnchorStart, AnchorEnd, Line int32
}

// FoldedAt returns d as the finding at place pl: its range and anchor range
// from pl (li is the line index of d's file; nil gives the line alone), without fixes, related
// locations or folded findings of its own.
func (d *Diagnostic) FoldedAt(pl Place, li *pyast.LineIndex) Diagnostic {
	out := *d
	if li != nil {
		out.Location = SpanLocation(d.Path, li, int(pl.Start), int(pl.End))
	} else {
		out.Start = pyast.Position{Line: int(pl.Line), Column: 1, Column16: 1, Offset: int(pl.Start)}
		out.End = out.Start
	}
	out.AnchorStart, out.AnchorEnd = int(pl.AnchorStart), int(pl.AnchorEnd)
	out.Fixes, out.Related, out.More = nil, nil, nil
	return out
}

// PlaceOf returns d's place, as Diagnostic.More keeps it.
func PlaceOf(d *Diagnostic) Place {
	return Place{Start: int32(d.Start.Offset), End: int32(d.End.Offset), AnchorStart: int32(d.AnchorStart), AnchorEnd: int32(d.AnchorEnd), Line: int32(d.Start.Line)}
}

// Findings returns how many findings d stands for: itself and those folded
// into it.
func (d *Diagnostic) Findings() int { return 1 + len(d.More) }

// Suppression describes the comment that suppressed a finding.
type Suppression struct {
	Location
	Justification string // the reason written after the codes
}

// Kind groups rules by what they read.
type Kind int

const (
	CodeRule       Kind = iota // reads handler-reachable Python code
	DependencyRule             // reads dependency files
	MetaRule                   // reported by mcplint itself (unreadable files, suppressions)
)

// FixAvailability says whether a rule offers fixes.
type FixAvailability int

const (
	FixNone FixAvailability = iota
	FixSometimes
	FixAlways
)

// Doc is a rule's documentation, shown by `mcplint explain` and embedded in
// SARIF. Every section but References is required (TestRegistryDocs).
type Doc struct {
	Summary      string // one sentence, no trailing period: the short description
	WhatItDoes   string
	WhyIsThisBad string
	Example      string // Python (or requirements) code
	UseInstead   string
	FixSafety    string
	References   []string
}

// Rule is one check.
type Rule struct {
	Code      string // stable: MCP101
	Name      string // kebab-case: uncancellable-thread-await
	Kind      Kind
	Doc       Doc
	Severity  Severity // default severity where the project's versions make the finding matter
	Fix       FixAvailability
	Tags      []string
	Precision string // SARIF precision: very-high, high, medium, low
	// Exposure tells, from a project's resolved versions, whether the problem
	// can happen there: Yes (error), Unknown (warning), No (not reported, or a
	// note on request). Nil means always Yes.
	Exposure func(p *deps.Project) deps.Tri
	// Guarded says that a respond/cancel guard running before the server
	// starts (SPEC section 1, the third remedy) closes the crash the rule
	// reports: the engine treats a finding as on mcp >= 2 (a note, shown on
	// request) where every server that runs its code installed the guard
	// first (handlers.Index.GuardOf; for a dependency rule every server of
	// the project, handlers.Index.ActiveGuard), unless the rule marks it
	// Unguardable.
	Guarded bool
	// ReadsCode makes a dependency rule's project parse its Python code too
	// (for fixes that edit it, such as the guard, and to tell a server
	// project from a client through the handler index).
	ReadsCode bool
	// Reach marks a code rule whose findings depend on which functions the
	// handlers reach (their call graph): the engine runs it again on the
	// graph with the edges of calls it could not resolve
	// (handlers.Index.Possible), and what it finds only there is possibly
	// reached (PossiblyReached).
	Reach bool
	// DefaultOff rules run only when selected explicitly.
	DefaultOff bool
	Run        func(*Pass)
}

// Pass is one rule's view of one project.
type Pass struct {
	Rule     *Rule
	Root     string // the scan root, for relative paths
	Project  *deps.Project
	Modules  []*pyast.Module // the project's parsed modules
	Handlers *handlers.Index
	// PyFiles are every Python file of the project, parsed or not (Modules
	// holds only those that can reach a handler), and ReadFile reads one as
	// the run sees it. A fix that must know how the rest of the project
	// uses a function (MCP103: its direct callers, tests included) reads
	// them; nil in unit tests.
	PyFiles  []string
	ReadFile func(string) ([]byte, error)
	// Config holds the rule options from configuration (handler decorators and
	// the like), read-only.
	Config map[string]any
	// CodeUnseen is set when the run did not see all of the project's
	// Python files (a file given as the root): Handlers then cannot tell
	// that the project has no server.
	CodeUnseen bool
	// ScriptServer is set when a PEP 723 script in the project's folder (a
	// project of its own) registers a handler: the folder's dependency files
	// may be what installs the script (a requirements.txt beside it), so the
	// project is not judged a non-server for lack of Python files of its own.
	ScriptServer bool
	// CopiedIn names, for a project with no Python file of its own, the
	// packages its manifest builds into the wheel: they are copied into
	// the folder when it is built, so the project is not judged a
	// non-server for lack of code (its pins are reported as a server's).
	CopiedIn []string
	// FunctionSteps is the step budget of the cancellation-flow analysis of
	// each function (checkpoint.Analyzer.SetBudget); 0 means no limit.
	FunctionSteps int64

	report     func(Diagnostic)
	folds      func(*Diagnostic) bool // see Folded; nil: none is
	topModules map[string]bool        // the project's top-level module names (firstParty)
	// callsIn caches, per Python file that is not in Modules, the
	// qualified names it calls, with the line of each call (directCalls).
	callsIn map[string][]resolvedCall
	// byPath holds the pass's modules by path (editsBrokenFile), made on
	// first use.
	byPath map[string]*pyast.Module
	// notServer memoises notAServer for the pass, fastmcpIdle fastmcpUnused
	// (asked for every fastmcp requirement and lock entry).
	notServer, fastmcpIdle *string
	// analyzers are the checkpoint analyzers the rule made (TooComplex).
	analyzers []*checkpoint.Analyzer
	// conflicts memoises installConflict, and guardOffer offeredGuard, for
	// the pass (depfixes.go): a requirement repeated a million times is
	// judged once.
	conflicts  map[conflictKey]string
	guardOffer *guardOffer
	// widths memoises widthFor (edits.go).
	widths map[*pyast.Module]int
}

// TooComplex returns the functions whose analysis ran out of its step budget
// (FunctionSteps) while the rule ran: their findings were not reported, and
// the run reports each as MCP000.
func (p *Pass) TooComplex() []checkpoint.TooComplexFunc {
	var out []checkpoint.TooComplexFunc
	for _, a := range p.analyzers {
		out = append(out, a.TooComplex()...)
	}
	return out
}

// NewPass makes a Pass that sends diagnostics to report.
func NewPass(r *Rule, root string, proj *deps.Project, mods []*pyast.Module, hx *handlers.Index, report func(Diagnostic)) *Pass {
	return &Pass{Rule: r, Root: root, Project: proj, Modules: mods, Handlers: hx, report: report}
}

// SetFolds sets what Folded asks: whether the engine would keep a finding
// reported now as its place alone (Diagnostic.More).
func (p *Pass) SetFolds(folds func(*Diagnostic) bool) { p.folds = folds }

// Folded reports whether Report would keep d as its place alone, folded
// into a finding of its kind reported before (Diagnostic.More): a rule may
// then leave out its fixes and related locations, which such a finding does
// not carry, and spend nothing on them. Only a rule that reports many
// findings of one kind (a requirement line repeated) needs to ask.
func (p *Pass) Folded(d Diagnostic) bool {
	if p.folds == nil {
		return false
	}
	d.Code, d.Name = p.Rule.Code, p.Rule.Name
	if p.Project != nil && d.Project == "" {
		d.Project = p.Project.Dir
	}
	return p.folds(&d)
}

// Report sends d, filling in the rule's code and name. A fix that edits a
// Python file with syntax errors becomes advice (DisplayOnly): its edits
// were computed from tree-sitter's error recovery, whose idea of where a
// block ends need not match the file's indentation (FuzzFixLoop found an
// MCP103 fix that moved a top-level def into the handler it wrapped). Ruff
// makes the same choice: no fixes in a file that does not parse.
func (p *Pass) Report(d Diagnostic) {
	d.Code, d.Name = p.Rule.Code, p.Rule.Name
	copied := false
	for i, f := range d.Fixes {
		if f.Applicability == DisplayOnly || !p.editsBrokenFile(&f) {
			continue
		}
		if !copied { // the rule may share its slice
			d.Fixes, copied = append([]Fix(nil), d.Fixes...), true
		}
		d.Fixes[i] = Fix{Message: f.Message + " (not applied: a file it edits has syntax errors)", Applicability: DisplayOnly, Partial: f.Partial}
	}
	for i, f := range d.Fixes {
		if f.Applicability == DisplayOnly {
			continue
		}
		if file, enc := p.decodedFile(&f); enc != "" {
			if !copied {
				d.Fixes, copied = append([]Fix(nil), d.Fixes...), true
			}
			d.Fixes[i] = Fix{Message: f.Message + " (not applied: " + path.Base(file) + " is " + enc + ", and mcplint writes a file only in the encoding it read)", Applicability: DisplayOnly, Partial: f.Partial}
		}
	}
	if p.Project != nil && d.Project == "" {
		d.Project = p.Project.Dir
	}
	p.report(d)
}

// decodedFile returns a dependency file that f edits and that was read
// decoded from UTF-16 or UTF-32 (deps.Decode), with its encoding.
func (p *Pass) decodedFile(f *Fix) (string, string) {
	if p.Project == nil {
		return "", ""
	}
	for _, e := range f.Edits {
		if df := p.Project.File(e.Path); df != nil && df.Encoding != "" {
			return e.Path, df.Encoding
		}
	}
	return "", ""
}

// editsBrokenFile reports whether f edits a module of the pass that has
// syntax errors. Only the modules a fix edits are asked, and each module
// finds its answer once for every rule (pyast.Module.HasErrors).
func (p *Pass) editsBrokenFile(f *Fix) bool {
	if p.byPath == nil {
		p.byPath = make(map[string]*pyast.Module, len(p.Modules))
		for _, m := range p.Modules {
			p.byPath[m.Path] = m
		}
	}
	for _, e := range f.Edits {
		if m := p.byPath[e.Path]; m != nil && m.HasErrors() {
			return true
		}
	}
	return false
}

// NodeLocation returns the location of node n in module m.
func NodeLocation(m *pyast.Module, n *pyast.Node) Location {
	return SpanLocation(m.Path, m.Lines, int(n.StartByte()), int(n.EndByte()))
}

// SpanLocation returns the location of a byte range of a file.
func SpanLocation(path string, li *pyast.LineIndex, start, end int) Location {
	return Location{Path: path, Start: li.Position(start), End: li.Position(end)}
}

// ReportNode reports a finding on node n of module m, anchored to the
// function that contains it.
func (p *Pass) ReportNode(m *pyast.Module, n *pyast.Node, msg string, related []Related, fixes ...Fix) {
	d := Diagnostic{Location: NodeLocation(m, n), Message: msg, Related: related, Fixes: fixes}
	if f := m.FuncAt(n); f != nil {
		d.Anchor = f.Qual
		d.AnchorStart, d.AnchorEnd = int(f.Stmt.StartByte()), int(f.Stmt.EndByte())
	} else {
		d.Anchor = m.Name
		d.AnchorStart, d.AnchorEnd = 0, len(m.Src)
	}
	p.Report(d)
}

// HandlerRelated returns related locations naming the handlers that reach f
// (three at most); the first that is not f itself says through which calls
// it reaches f (Index.ReachChain), when that is more than one call.
func (p *Pass) HandlerRelated(f *pyast.Function) []Related {
	var out []Related
	chain, _ := p.Handlers.ReachChain(f)
	told := false
	for _, h := range p.Handlers.ReachedFrom(f) {
		msg := fmt.Sprintf("reached from %s handler %s", h.Kind, h.Func.Name)
		if h.Func == f {
			msg = fmt.Sprintf("%s handler %s registered here", h.Kind, h.Func.Name)
		} else if !told && len(chain) > 2 && chain[0].Func == h.Func {
			msg += " through " + chainText(chain)
			told = true
		}
		out = append(out, Related{Location: NodeLocation(h.Module, h.Func.Node.ChildByFieldName("name")), Message: msg})
		if len(out) == 3 {
			break
		}
	}
	return out
}

// chainText shows a chain of calls, `a` -> `b` -> `c`, its start and end
// when it is long.
func chainText(chain []handlers.FuncRef) string {
	steps := make([]string, len(chain))
	for i, r := range chain {
		steps[i] = "`" + shortQual(r) + "`"
	}
	return strings.Join(shortenChain(steps), " -> ")
}

var registry = map[string]*Rule{}

// Register adds a rule; rule files call it from init.
func Register(r *Rule) *Rule {
	if _, dup := registry[r.Code]; dup {
		panic("duplicate rule " + r.Code)
	}
	registry[r.Code] = r
	return r
}

// All returns every rule sorted by code.
func All() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Lookup finds a rule by code or name, case-insensitively.
func Lookup(codeOrName string) *Rule {
	for _, r := range registry {
		if strings.EqualFold(r.Code, codeOrName) || strings.EqualFold(r.Name, codeOrName) {
			return r
		}
	}
	return nil
}
