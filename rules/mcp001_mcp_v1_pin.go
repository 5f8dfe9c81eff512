package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
)

// MCP001 flags each requirement on mcp (in any dependency file deps reads)
// whose admitted versions are all 1.x. A range open above resolves to the
// newest release (2.x today) and is not flagged.
var mcp001 = Register(&Rule{
	Code:      "MCP001",
	Name:      "mcp-v1-pin",
	Kind:      DependencyRule,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"dependencies", "mcp-1x", "cancellation", "crash"},
	Precision: "very-high",
	Guarded:   true,
	ReadsCode: true,
	Doc: Doc{
		Summary: "The declared or locked mcp admits only 1.x, where a client's cancel can crash the server",
		WhatItDoes: "Flags a requirement on the official `mcp` SDK, in any Python dependency file (pyproject.toml, " +
			"requirements files, setup.cfg, setup.py, Pipfile, PEP 723 script metadata) or lock file (uv.lock, " +
			"poetry.lock, pdm.lock, Pipfile.lock, pylock.toml, pip-compile output), whose admitted versions are all " +
			"1.x. The message names the crashes the admitted range is exposed to. A range open above (`mcp>=1.20`) " +
			"resolves to the newest release, 2.x, and is not flagged, even where the server's code uses what 2.x removed " +
			"and so runs only on 1.x: the code rules then count the project as 1.x and say why, and their fixes stay " +
			"within 1.x (MCP105 raises the floor to `>=1.27.0,<2`). Only a server project is reported: one that registers a " +
			"handler or constructs a server (a library that builds a `Server`, subclasses one, or takes one to register " +
			"handlers on counts). A client, an agent or a benchmark that only uses `mcp` has no handler to crash: its pin " +
			"is a note, shown with `--show-safe`, whose message says so.",
		WhyIsThisBad: "In mcp 1.12.3 up to 1.30.0 (the last 1.x), a handler that returns normally after the client " +
			"cancelled its request makes the SDK respond twice: `AssertionError: Request already responded to` escapes " +
			"the server's task group and a stdio server exits. Clients do cancel (timeouts, a user interrupting a call). " +
			"Before 1.12.3 a cancel can stop the server even when the handler observes it, before 1.3.0 cancellation " +
			"is not supported at all, and before 1.27.0 closing the transport while handlers are in flight crashes too. " +
			"mcp 2.x never answers a cancelled request and drops the late result.",
		Example:    "# pyproject.toml\n[project]\ndependencies = [\"mcp[cli]>=1.20,<2\"]\n",
		UseInstead: "# pyproject.toml\n[project]\ndependencies = [\"mcp[cli]>=2,<3\"]\n",
		FixSafety: "Up to three alternatives. `mcp>=2,<3` is unsafe: 1.x to 2.x is a breaking migration " +
			"(`mcp.server.fastmcp.FastMCP` becomes `mcp.server.mcpserver.MCPServer`, the low-level `Server` decorators " +
			"become `on_*` constructor arguments, types move to snake_case, `McpError` becomes `MCPError`, sync " +
			"handlers run in a worker thread). It is advice only, never applied, when the project imports what mcp 2 " +
			"removed (`mcp.server.fastmcp`, `McpError`, the 1.x low-level decorators such as `@server.call_tool()`: the " +
			"message names the first few with file:line), when a comment on the requirement's line or just above it " +
			"mentions mcp or the pinned version (a deliberate pin), when the line pins `--hash` values, or when the " +
			"project's fastmcp is below 4 (it requires mcp 1.x: move fastmcp instead, MCP002). Where the " +
			"range admits versions below 1.27.0, the last alternative raises the floor within 1.x in the user's " +
			"style: an exact pin stays exact at 1.27.0, the first release with the transport-close fix (`==1.20.0` " +
			"becomes `==1.27.0`), `~=1.22` becomes `~=1.27`, Poetry's `^1.23` becomes `^1.27`, a range gets the new " +
			"floor and keeps its upper bound. It is safe (a minor release of the same API) but partial: it removes the " +
			"transport-close crashes, not the cancel race. When a lock pins a version the new requirement excludes, the " +
			"message says to re-lock. A lock file gets no edit: change the manifest, then re-lock. An SDK installed " +
			"from git through `[tool.uv.sources]` is reported on the source entry, the line to change; a release tag " +
			"(`mcp @ git+https://...python-sdk@v1.25.0`, a uv or Poetry `tag`) reads as its version, and the advice " +
			"is to point the reference at a 2.x release. " +
			"Where the project creates a server (and has no guard yet), another alternative stays on 1.x and writes the " +
			"respond/cancel guard (below), offered after the migration and before the partial floor raise: unsafe, " +
			"since it patches a private attribute of the SDK. The guard covers the cancel crash, not the crash at " +
			"transport close below 1.27.0: on a requirement that admits such a version its description says so, and " +
			"applied alone it leaves this finding with the floor raise to do. In a guarded project the finding is a " +
			"note where mcp is 1.27.0 or later; where the requirement admits an older one and the project can run it " +
			"(a lock's exact version decides), it stays an error that says the guard covers only the cancel crash, and " +
			"the floor raise is its safe, complete fix.",
		References: []string{
			"https://github.com/modelcontextprotocol/python-sdk/releases",
			"https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/cancellation",
		},
	},
	Run: runMCP001,
})

// mcp2Migration is what a fix that bumps mcp to 2.x must say.
const mcp2Migration = "a breaking migration: FastMCP becomes mcp.server.mcpserver.MCPServer, low-level Server " +
	"decorators become on_* arguments, types move to snake_case, McpError becomes MCPError, sync handlers run in a thread"

func runMCP001(p *Pass) {
	var blockers []apiUse
	blockersDone := false
	sources := map[sourceAt]bool{}
	res := p.Project.Resolution("mcp")
	// What a requirement admits, once for each way of writing it (its
	// file, which says how it is parsed, and its specifier): one repeated
	// a million times is judged once.
	type written struct {
		path, spec, version, url string
		poetry, unknown, locked  bool
	}
	type judged struct {
		set     deps.Set
		only1   bool
		crashes string
	}
	bySet := map[written]*judged{}
	for _, r := range p.Project.Requirements() {
		if r.Name != "mcp" || r.Constraint || r.Locked && !slices.Contains(res.Locked, r) {
			continue // a lock entry of a lock made for another manifest (Resolution.Stale) is not what runs
		}
		key := written{r.Path, r.Specifier, r.Version, r.URL, r.Poetry, r.Unknown, r.Locked}
		j := bySet[key]
		if j == nil {
			j = &judged{set: deps.ResolveOpen("mcp", r.Set)}
			j.only1 = j.set.AdmitsRange("1.0.0", "2.0.0") && !j.set.AdmitsRange("2.0.0.dev0", "")
			if j.only1 {
				j.crashes = strings.Join(mcp1Crashes(j.set), "; ")
			}
			bySet[key] = j
		}
		if !j.only1 {
			continue
		}
		set, crashes := j.set, j.crashes
		if !blockersDone {
			blockers, blockersDone = mcp1OnlyAPIs(p), true
		}
		// An SDK installed from git (or a path): the source line is the
		// one to change, for the lock entry and the requirement alike.
		if src := installSource(p, r); src != nil {
			if at := (sourceAt{src.Path, src.Start}); !sources[at] {
				sources[at] = true
				reportSource(p, r, src, crashes, blockers)
			}
			continue
		}
		msg := fmt.Sprintf("%s admits only mcp 1.x: %s", reqHead(p, r, 72), crashes)
		// The guard closes the cancel crash, not the transport-close crash
		// below 1.27.0: where this requirement admits such a version and the
		// project can run one (a lock's exact version decides), the finding
		// stays an error in a guarded project, and the guard alone does not
		// remove it.
		closeCrash := set.AdmitsRange("", "1.27.0") && p.Project.MCPAdmits("", "1.27.0") != deps.No
		guarded := p.Handlers.ActiveGuard()
		unguardable := guarded != nil && closeCrash
		if unguardable {
			msg += fmt.Sprintf("; the respond/cancel guard (%s) closes only the cancel crash, not the crash at transport "+
				"close below 1.27.0", where(p, guarded.Module, int(guarded.Stmt().StartByte())))
		}
		if r.Locked {
			msg += lockAdvice(p, r, "mcp")
		}
		// Made only for a finding kept in full (Pass.Folded): a requirement
		// repeated a million times costs a million places, not fixes.
		fixes := func() []Fix {
			var fixes []Fix
			// The respond/cancel guard stays on 1.x and closes the crash: after
			// the migration (complete but breaking), before the partial floor.
			guard, guardOK := offeredGuard(p)
			if guardOK && closeCrash {
				guard.Message += "; it does not fix the crash at transport close below 1.27.0, which this requirement " +
					"admits: this finding stays until the floor is raised to 1.27.0 too"
				guard.Partial = true
			}
			if r.Locked {
				advice := "change the mcp requirement in the manifest to mcp>=2,<3 (" + mcp2Migration + "), then re-lock"
				if f := lockedFastmcp3(p, r); f != nil {
					// fastmcp < 4 is built on mcp 1.x: the re-lock has to move it too.
					advice += fmt.Sprintf("; %s %s, which %s also locks, is built on mcp 1.x: move it to fastmcp>=4,<5 as well (MCP002: a migration of its own)",
						f.RawName, f.Version, path.Base(f.Path))
				}
				if len(blockers) > 0 {
					advice += "; first migrate what mcp 2 removed: " + describeUses(blockers)
				}
				if unguardable {
					// Guarded, the floor is what is left to raise.
					fixes = append(fixes, Fix{Message: "raise the mcp floor in the manifest to >=1.27.0 (within 1.x), then " +
						"re-lock: the guard covers the cancel crash", Applicability: DisplayOnly})
				}
				fixes = append(fixes, Fix{Message: advice, Applicability: DisplayOnly})
			} else if r.VersionStart >= 0 {
				fixes = append(fixes, mcp2Bump(p, r, blockers))
				if guardOK {
					fixes, guardOK = append(fixes, guard), false
				}
				if f, ok := floorFix(p, r, "1.27.0", unguardable); ok {
					fixes = append(fixes, f)
				}
			} else if r.URL != "" {
				// mcp @ git+...@v1.25.0: the release tag is the version.
				advice := "point the reference at a 2.x release of the SDK, or replace it with mcp>=2,<3 (" + mcp2Migration + ")"
				if len(blockers) > 0 {
					advice += "; first migrate what mcp 2 removed: " + describeUses(blockers)
				}
				fixes = append(fixes, Fix{Message: advice, Applicability: DisplayOnly})
			}
			if guardOK {
				fixes = append(fixes, guard)
			}
			return fixes
		}
		reportUnguardable(p, r, msg, fixes, unguardable)
	}
}

// mcp2Bump is the fix that moves a manifest requirement to mcp 2: an unsafe
// edit, or advice only when the project uses APIs mcp 2 removed (it would
// not start), when the server it installs is a PEP 723 script beside it
// (whose code is not read here), or a comment by the requirement pins it
// deliberately.
func mcp2Bump(p *Pass, r *deps.Requirement, blockers []apiUse) Fix {
	const spec = ">=2,<3"
	f := Fix{
		Message:       "require mcp" + spec + " (" + mcp2Migration + ")" + relock(p, r, "mcp", spec),
		Applicability: Unsafe,
		Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: spec}},
		MovesToMCP2:   true,
	}
	conflict := installConflict(p, r, spec)
	switch c, pinned := pinComment(p, r, "mcp"); {
	case hashPinned(p, r):
		f.Message += hashAdvice
		f.Applicability, f.Edits = DisplayOnly, nil
	case fastmcpHoldsMCP1(p):
		// fastmcp < 4 requires mcp<2: the installer could not resolve it.
		f.Message = "require mcp" + spec + ": not applied, the project's fastmcp below 4 requires mcp 1.x, so the " +
			"installer could not resolve it; move fastmcp to >=4,<5 (MCP002), which brings mcp 2"
		f.Applicability, f.Edits = DisplayOnly, nil
	case conflict != "":
		f.Message = "require mcp" + spec + " (" + mcp2Migration + "): not applied, the requirements installed with it could not " +
			"be resolved: " + conflict + relock(p, r, "mcp", spec)
		f.Applicability, f.Edits = DisplayOnly, nil
	case len(blockers) > 0:
		f.Message = "require mcp" + spec + " after migrating: not applied, the project uses APIs that mcp 2 removed, so it " +
			"would not start: " + describeUses(blockers) + " (" + mcp2Migration + ")" + relock(p, r, "mcp", spec)
		f.Applicability, f.Edits = DisplayOnly, nil
	case p.ScriptServer:
		// The server this requirement installs is a PEP 723 script beside
		// it, a project of its own whose code this project's pass does not
		// read: whether it uses what mcp 2 removed is unknown here.
		f.Message = "require mcp" + spec + " after checking the PEP 723 script beside this file (the server it installs) " +
			"for APIs mcp 2 removed: not applied (" + mcp2Migration + ")" + relock(p, r, "mcp", spec)
		f.Applicability, f.Edits = DisplayOnly, nil
	case pinned:
		f.Message = "require mcp" + spec + " (" + mcp2Migration + "): not applied, a comment there pins it deliberately (" +
			c + ")" + relock(p, r, "mcp", spec)
		f.Applicability, f.Edits = DisplayOnly, nil
	}
	return f
}

// lockedFastmcp3 returns the fastmcp (or fastmcp-slim) below 4 that the
// lock of entry r also holds, where a manifest of the project declares
// fastmcp (one another package pulls in is not the user's to move), or nil.
func lockedFastmcp3(p *Pass, r *deps.Requirement) *deps.Requirement {
	res := p.Project.Resolution("fastmcp")
	if len(res.Declared) == 0 {
		return nil
	}
	for _, f := range res.Locked {
		if f.Path != r.Path || f.Unknown {
			continue
		}
		if v, err := deps.ParseVersion(f.Version); err == nil && v.Compare(deps.MustVersion("4.0.0.dev0")) < 0 {
			return f
		}
	}
	return nil
}

// fastmcpHoldsMCP1 reports whether a manifest requires fastmcp below 4
// (which requires mcp 1.x), so mcp>=2,<3 could not be installed beside it. A
// lock's fastmcp 3.x does not count: re-locking can move it when the
// manifest allows fastmcp 4.
func fastmcpHoldsMCP1(p *Pass) bool {
	for _, d := range p.Project.Resolution("fastmcp").Declared {
		if !d.Unknown && !deps.ResolveOpen("fastmcp", d.Set).AdmitsRange("4.0.0.dev0", "") {
			return true
		}
	}
	return false
}

// floorFix raises a 1.x requirement's floor to floor in the user's style
// (an exact pin stays exact, at floor, the first release with the
// transport-close fix). It leaves the cancel crash, so it is partial,
// unless the project is guarded (the guard covers the cancel crash); next
// to a comment that pins the requirement it is advice only.
func floorFix(p *Pass, r *deps.Requirement, floor string, guarded bool) (Fix, bool) {
	text, ok := r.FloorSpecifier(floor)
	if !ok {
		return Fix{}, false
	}
	how := "raise the floor: " + r.RawName + text
	if strings.HasPrefix(text, "==") || text == floor {
		how = "pin " + r.RawName + text + ", " + floor + " being the first release with the transport-close fix"
	}
	leaves := ", not the cancel crash"
	if guarded {
		leaves = "; the guard covers the cancel crash"
	}
	f := Fix{
		Message:       "stay on 1.x and " + how + " (fixes the crashes below " + floor + leaves + ")" + relock(p, r, "mcp", text),
		Applicability: Safe,
		Partial:       !guarded,
		Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: text}},
	}
	if c, pinned := pinComment(p, r, "mcp"); pinned {
		f.Message += ": not applied, a comment there pins it deliberately (" + c + ")"
		f.Applicability, f.Edits, f.Partial = DisplayOnly, nil, false
	} else if hashPinned(p, r) {
		f.Message += hashAdvice
		f.Applicability, f.Edits, f.Partial = DisplayOnly, nil, false
	} else if c := installConflict(p, r, text); c != "" {
		f.Message += ": not applied, the requirements installed with it could not be resolved: " + c
		f.Applicability, f.Edits, f.Partial = DisplayOnly, nil, false
	}
	return f, true
}

// installSource returns where r's package is installed from when no index
// decides its version (deps.Requirement.InstallSource): r's own
// [tool.uv.sources] entry, or for a lock entry the source or direct
// reference of a requirement the manifests declare. The lock records what
// that source gave; the source is the line to change. A manifest's direct
// reference is its own line already: nil.
func installSource(p *Pass, r *deps.Requirement) *deps.Source {
	if !r.Locked {
		if src := r.InstallSource(); src != nil && !src.Direct {
			return src
		}
		return nil
	}
	for _, d := range p.Project.Resolution(r.Name).Declared {
		if src := d.InstallSource(); src != nil {
			return src
		}
	}
	return nil
}

// sourceAt is a source's place, to report each once.
type sourceAt struct {
	path  string
	start int
}

// sourceFrom describes a source for messages: "a git source
// ([tool.uv.sources])" or "a git direct reference", and "git URL at REF".
func sourceFrom(src *deps.Source) (kind, from string) {
	kind = "a " + escape.Line(src.Kind, 20) + " source ([tool.uv.sources])"
	if src.Direct {
		kind = "a " + escape.Line(src.Kind, 20) + " direct reference"
	}
	from = src.Kind + " " + escape.Line(src.URL, 80)
	if src.Ref != "" {
		from += " at " + escape.Line(src.Ref, 40)
	}
	return kind, from
}

// sourceLocation is a requirement standing for the source's place, where
// the finding goes.
func sourceLocation(r *deps.Requirement, src *deps.Source) *deps.Requirement {
	return &deps.Requirement{Name: r.Name, RawName: r.RawName, Path: src.Path, Start: src.Start, End: src.End, VersionStart: -1, VersionEnd: -1}
}

// reportSource reports an SDK installed from a source (a [tool.uv.sources]
// entry or a direct reference) that resolves to 1.x on the source itself:
// the line to change.
func reportSource(p *Pass, r *deps.Requirement, src *deps.Source, crashes string, blockers []apiUse) {
	kind, from := sourceFrom(src)
	how := "its tag is an mcp 1.x release"
	if r.Locked {
		how = fmt.Sprintf("%s resolves it to mcp %s", path.Base(r.Path), r.Version)
	}
	msg := fmt.Sprintf("mcp from %s is only 1.x: it is installed from %s and %s; %s", kind, from, how, crashes)
	advice := "point the source at a 2.x release of the SDK, or remove it and require mcp>=2,<3 (" + mcp2Migration + "), then re-lock"
	if len(blockers) > 0 {
		advice += "; first migrate what mcp 2 removed: " + describeUses(blockers)
	}
	reportRequirement(p, sourceLocation(r, src), msg, func() []Fix { return []Fix{{Message: advice, Applicability: DisplayOnly}} })
}

// mcp1Crashes names the crashes of the 1.x versions set admits (SPEC 2).
func mcp1Crashes(set deps.Set) []string {
	var out []string
	if set.AdmitsRange("1.12.3", "2.0.0") {
		out = append(out, "a handler that returns after a client's cancel crashes the server (AssertionError \"Request already responded to\", every 1.x from 1.12.3)")
	}
	if set.AdmitsRange("1.3.0", "1.12.3") {
		out = append(out, "below 1.12.3 a cancel can stop the server even when the handler observes it")
	}
	if set.AdmitsRange("", "1.3.0") {
		out = append(out, "below 1.3.0 cancellation is not supported (the notification fails validation)")
	}
	if set.AdmitsRange("", "1.27.0") {
		out = append(out, "below 1.27.0 closing the transport with handlers in flight crashes (closed streams, \"dictionary changed size during iteration\")")
	}
	return out
}

// reqText is the requirement as written, for messages.
func reqText(p *Pass, r *deps.Requirement) string { return reqHead(p, r, escape.CodeRunes) }

// reqHead is reqText cut to n characters of code, for a headline
// (rules.Headline), which must stay within HeadlineWidth whatever the
// requirement says.
func reqHead(p *Pass, r *deps.Requirement, n int) string {
	if r.Locked {
		return fmt.Sprintf("%s %s locked in %s", escape.Cut(r.RawName, n), escape.Cut(r.Version, n), escape.Cut(path.Base(r.Path), n))
	}
	if f := p.Project.File(r.Path); f != nil && r.Start >= 0 && r.End <= len(f.Src) && r.Start < r.End && !r.Poetry {
		return "`" + escape.Cut(strings.Join(strings.Fields(string(f.Src[r.Start:r.End])), " "), n) + "`"
	}
	return "`" + escape.Cut(r.String(), n) + "`"
}

// lockAdvice says what to do about a lock entry, and whether the lock
// disagrees with the manifests.
func lockAdvice(p *Pass, r *deps.Requirement, pkg string) string {
	s := fmt.Sprintf(". A lock file is not edited: change the %s requirement in the manifest and re-lock", pkg)
	for _, st := range p.Project.Resolution(pkg).Stale {
		if strings.HasPrefix(st, fmt.Sprintf("%s locks %s %s ", path.Base(r.Path), r.RawName, r.Version)) {
			s += " (the lock is stale: " + st + ")"
			break
		}
	}
	return s
}

// reportRequirement reports a finding on a requirement's text, anchored to
// the package name and the requirement's lines; in a project that is not an
// MCP server, as a note that says why.
func reportRequirement(p *Pass, r *deps.Requirement, msg string, fixes func() []Fix) {
	msg, exposure := serverExposure(p, msg)
	reportRequirementAs(p, r, msg, fixes, exposure)
}

// reportUnguardable is reportRequirement for a finding that the
// respond/cancel guard does not close (Diagnostic.Unguardable), when
// unguardable is set.
func reportUnguardable(p *Pass, r *deps.Requirement, msg string, fixes func() []Fix, unguardable bool) {
	msg, exposure := serverExposure(p, msg)
	reportRequirementWith(p, r, msg, fixes, exposure, unguardable)
}

// reportRequirementAs reports a finding on r's requirement text with the
// given exposure; a finding that cannot crash (No) carries no fix, and
// fixes are made only for a finding kept in full (Pass.Folded).
func reportRequirementAs(p *Pass, r *deps.Requirement, msg string, fixes func() []Fix, exposure deps.Tri) {
	reportRequirementWith(p, r, msg, fixes, exposure, false)
}

// The lines that repeat r (r.Repeats) are findings too, each at its place:
// they come past the display limit of findings of one kind, so each is
// folded to its place (Pass.Folded) and has no fixes.
func reportRequirementWith(p *Pass, r *deps.Requirement, msg string, fixes func() []Fix, exposure deps.Tri, unguardable bool) {
	f := p.Project.File(r.Path)
	if f == nil {
		return
	}
	at := func(startOff, endOff int) Diagnostic {
		start, end := f.Lines.Position(startOff), f.Lines.Position(endOff)
		lineEnd := f.Lines.LineStart(end.Line+1) - 1
		if end.Line >= f.Lines.Lines() {
			lineEnd = len(f.Src)
		}
		return Diagnostic{
			Location:    SpanLocation(r.Path, f.Lines, startOff, endOff),
			Message:     msg,
			Exposure:    exposure,
			Anchor:      r.Name,
			AnchorStart: f.Lines.LineStart(start.Line),
			AnchorEnd:   lineEnd,
			Unguardable: unguardable,
		}
	}
	d := at(r.Start, r.End)
	if exposure != deps.No && !p.Folded(d) { // nothing to fix where nothing can crash
		d.Fixes = fixes()
	}
	p.Report(d)
	for _, s := range r.Repeats {
		p.Report(at(int(s.Start), int(s.End)))
	}
}
