package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
)

// MCP002 flags each requirement on PrefectHQ fastmcp (or fastmcp-slim) whose
// admitted versions are all below 4, so the server runs on mcp 1.x.
var mcp002 = Register(&Rule{
	Code:      "MCP002",
	Name:      "fastmcp-v3-pin",
	Kind:      DependencyRule,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"dependencies", "fastmcp", "mcp-1x", "cancellation", "crash"},
	Precision: "very-high",
	Guarded:   true,
	ReadsCode: true,
	Doc: Doc{
		Summary: "The declared or locked fastmcp admits only versions below 4, which run on mcp 1.x",
		WhatItDoes: "Flags a requirement on PrefectHQ `fastmcp` or `fastmcp-slim` (from 3.3.0 the code and the mcp pin " +
			"live in fastmcp-slim) in any dependency or lock file whose admitted versions are all below 4.0.0. A range " +
			"open above (`fastmcp>=3`) resolves to the newest release, 4.x, and is not flagged; a pre-release floor " +
			"admits the 4.0 pre-releases. As for MCP001, a project with no handler and no server construction (a " +
			"`fastmcp.Client` user) gets a note only, and so does a server none of whose modules imports fastmcp (it " +
			"sits in the lock through another package and serves no handler; the mcp pin it holds is MCP001's).",
		WhyIsThisBad: "fastmcp below 4 runs on mcp 1.x, where a handler that returns after a client's cancel crashes " +
			"the server. fastmcp 3.x makes this likely: it runs sync `def` tools, resources and prompts in a worker " +
			"thread without abandon, so a cancelled sync tool always returns normally. fastmcp 2.14.x and 3.x also " +
			"override `Server.run()` without mcp 1.27.0's transport-close cancel. fastmcp 4 runs on mcp 2.x, which " +
			"drops the late result.",
		Example:    "# requirements.txt\nfastmcp>=3,<4\n",
		UseInstead: "# requirements.txt\nfastmcp>=4,<5\n",
		FixSafety: "`fastmcp>=4,<5` is unsafe: fastmcp 4 moves to mcp 2.x, a breaking migration for code that uses the " +
			"SDK's types directly. It is advice only over a fastmcp 2.x pin (a requirement that admits no 3.x, or a " +
			"lock that pins 2.x): 2.x runs sync handlers inline, so only its mcp 1.x is at stake, and 4.x is two " +
			"breaking migrations away. It is advice only too next to a comment that mentions fastmcp or the pinned " +
			"version, and on a line that pins `--hash` values. It is advice only where the project's code, tests included, " +
			"uses what mcp 2 removed (`mcp.server.fastmcp`, `McpError`, the 1.x low-level decorators): fastmcp 4 runs on " +
			"mcp 2. A requirement installed with it (the same file's main dependencies, extra or group, or a file it " +
			"includes or is included by) that fastmcp 4 excludes, such as `mcp==1.28.1`, moves in the same fix " +
			"(`mcp>=2,<3`, `fastmcp-slim>=4,<5`); where that requirement cannot move (a comment pins it, `--hash`, a URL), " +
			"the bump is advice only. When a lock pins a version the new requirement " +
			"excludes, the message says to re-lock. A lock file gets no edit: change the manifest, then re-lock. A lock " +
			"that holds fastmcp and fastmcp-slim at one version gets one finding, on the package the manifest declares. " +
			"Where the project creates a server (and has no guard yet), an alternative stays on fastmcp 3 and writes " +
			"the respond/cancel guard (below): unsafe, since it patches a private attribute of the SDK; it is not offered " +
			"where a manifest already requires fastmcp 4 or mcp 2 beside a lock that still holds 1.x (the next install " +
			"re-locks to mcp 2, where the guard fails at import).",
		References: []string{"https://github.com/PrefectHQ/fastmcp/releases"},
	},
	Run: runMCP002,
})

func runMCP002(p *Pass) {
	drop, twin := fastmcpTwins(p)
	sources := map[sourceAt]bool{}
	for _, r := range p.Project.Requirements() {
		if r.Name != "fastmcp" && r.Name != "fastmcp-slim" || r.Constraint || drop[r] {
			continue
		}
		set := deps.ResolveOpen("fastmcp", r.Set)
		if !set.AdmitsRange("", "4.0.0") || set.AdmitsRange("4.0.0.dev0", "") {
			continue
		}
		v2 := fastmcp2Only(p, r, set)
		// Installed from git (or a path, a URL): the source line is the one
		// to change, for the lock entry and the requirement alike.
		if src := installSource(p, r); src != nil {
			if at := (sourceAt{src.Path, src.Start}); !sources[at] {
				sources[at] = true
				reportFastmcpSource(p, r, src, set, v2)
			}
			continue
		}
		msg := fmt.Sprintf("%s admits only %s below 4: %s", reqHead(p, r, 60), escape.Cut(r.RawName, 16), strings.Join(fastmcp3Crashes(set), "; "))
		if t := twin[r]; t != nil {
			msg += fmt.Sprintf(" (the lock also holds %s %s, the same release split in two packages: one finding for both)", t.RawName, t.Version)
		}
		if r.Locked {
			msg += lockAdvice(p, r, "fastmcp")
		}
		// Made only for a finding kept in full (Pass.Folded).
		fixes := func() []Fix {
			var fixes []Fix
			if r.Locked {
				advice := "change the fastmcp requirement in the manifest to fastmcp>=4,<5 (mcp 2.x, a breaking migration), then re-lock"
				if v2 {
					advice = fastmcp2Advice + ", then re-lock"
				}
				fixes = append(fixes, Fix{Message: advice, Applicability: DisplayOnly})
			} else if r.VersionStart >= 0 {
				fixes = append(fixes, fastmcp4Bump(p, r, v2, mcp1OnlyAPIs(p)))
			}
			return fixes
		}
		reportFastmcp(p, r, msg, fixes)
	}
}

// reportFastmcpSource reports a fastmcp installed from a source (a
// [tool.uv.sources] entry or a direct reference) that resolves below 4, on
// the source: the line to change.
func reportFastmcpSource(p *Pass, r *deps.Requirement, src *deps.Source, set deps.Set, v2 bool) {
	kind, from := sourceFrom(src)
	how := "its tag is a release below 4"
	if r.Locked {
		how = fmt.Sprintf("%s resolves it to %s %s", path.Base(r.Path), escape.Cut(r.RawName, 16), escape.Cut(r.Version, 40))
	}
	msg := fmt.Sprintf("%s from %s is only below 4: it is installed from %s and %s; %s", escape.Cut(r.RawName, 16), kind, from, how,
		strings.Join(fastmcp3Crashes(set), "; "))
	advice := "point the source at a fastmcp 4 release, or remove it and require fastmcp>=4,<5 (mcp 2.x, a breaking migration), then re-lock"
	if v2 {
		advice = fastmcp2Advice + "; then point the source at that release and re-lock"
	}
	reportFastmcp(p, sourceLocation(r, src), msg, func() []Fix { return []Fix{{Message: advice, Applicability: DisplayOnly}} })
}

// reportFastmcp reports a finding on fastmcp requirement r, the guard offered
// after fixes; a note where the project serves nothing on fastmcp
// (serverExposure, fastmcpUnused).
func reportFastmcp(p *Pass, r *deps.Requirement, msg string, fixes func() []Fix) {
	withGuard := func() []Fix {
		out := fixes()
		if g, ok := offeredGuard(p); ok {
			out = append(out, g)
		}
		return out
	}
	msg, exposure := serverExposure(p, msg)
	if why := fastmcpUnused(p); exposure != deps.No && why != "" {
		msg, exposure = msg+why, deps.No
	}
	reportRequirementAs(p, r, msg, withGuard, exposure)
}

// fastmcp2Advice is the advice for a fastmcp 2.x pin: fastmcp 4 is two
// breaking migrations away, never an edit.
const fastmcp2Advice = "fastmcp 2.x runs sync handlers inline (no worker-thread crash); to leave mcp 1.x, migrate to " +
	"fastmcp 3 and then 4 (>=4,<5: two breaking migrations, not applied), or make each handler observe the cancel"

// fastmcp4Bump is the fix that moves a manifest requirement to fastmcp 4:
// an unsafe edit, or advice only over a 2.x pin (two migrations away), next
// to a comment that pins the requirement deliberately, where the project's
// code (tests included) uses what mcp 2 removed (fastmcp 4 runs on mcp 2),
// or where a requirement installed beside it that fastmcp 4 excludes (mcp
// 1.x) cannot move with it (bumpTogether). The requirements that can move
// move in the same fix.
func fastmcp4Bump(p *Pass, r *deps.Requirement, v2 bool, blockers []apiUse) Fix {
	const spec = ">=4,<5"
	f := Fix{
		Message:       fmt.Sprintf("require %s%s (it runs on mcp 2.x: a breaking migration)%s", r.RawName, spec, relock(p, r, "fastmcp", spec)),
		Applicability: Unsafe,
		Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: spec}},
		MovesToMCP2:   true,
	}
	c, pinned := pinComment(p, r, "fastmcp", "fastmcp-slim")
	switch {
	case hashPinned(p, r):
		f.Message += hashAdvice
	case v2:
		f.Message = fastmcp2Advice + relock(p, r, "fastmcp", spec)
	case pinned:
		f.Message = fmt.Sprintf("require %s%s (it runs on mcp 2.x: a breaking migration): not applied, a comment there pins it deliberately (%s)%s",
			r.RawName, spec, c, relock(p, r, "fastmcp", spec))
	case len(blockers) > 0:
		f.Message = fmt.Sprintf("require %s%s after migrating: not applied, fastmcp 4 runs on mcp 2 and the project uses APIs that "+
			"mcp 2 removed, so it would not start: %s (%s)%s", r.RawName, spec, describeUses(blockers), mcp2Migration, relock(p, r, "fastmcp", spec))
	default:
		b := bumpTogether(p, r, spec, blockers)
		if b.why != "" {
			f.Message = fmt.Sprintf("require %s%s (it runs on mcp 2.x: a breaking migration): not applied, %s%s",
				r.RawName, spec, b.why, relock(p, r, "fastmcp", spec))
			break
		}
		if len(b.moved) > 0 {
			f.Message += "; with it, as fastmcp 4 requires: " + strings.Join(b.moved, ", ") + b.relock
			f.Edits = append(f.Edits, b.edits...)
		}
		return f
	}
	f.Applicability, f.Edits = DisplayOnly, nil
	return f
}

// fastmcp2Only reports whether the requirement is a fastmcp 2.x pin: it
// admits no 3.x, or the project's lock pins fastmcp 2.x.
func fastmcp2Only(p *Pass, r *deps.Requirement, set deps.Set) bool {
	if !set.AdmitsRange("3.0.0.dev0", "4.0.0") {
		return true
	}
	for _, l := range p.Project.Resolution("fastmcp").Locked {
		if v, err := deps.ParseVersion(l.Version); err == nil && v.Major() == 2 {
			return true
		}
	}
	return false
}

// fastmcp3Crashes names what the fastmcp versions set admits expose.
func fastmcp3Crashes(set deps.Set) []string {
	out := []string{"it pulls mcp 1.x, where a handler that returns after a client's cancel crashes the server"}
	if set.AdmitsRange("3.0.0", "4.0.0") {
		out = append(out, "fastmcp 3.x runs sync def tools, resources and prompts in a worker thread without abandon, so a cancelled sync handler returns normally and crashes it")
	} else {
		out = append(out, "fastmcp 2.x runs sync def handlers inline, so only handlers that return after a cancel (an offload, a swallowed cancel) crash it")
	}
	if set.AdmitsRange("2.14.0", "4.0.0") {
		out = append(out, "fastmcp 2.14/3.x override Server.run() without mcp 1.27.0's transport-close cancel")
	}
	return out
}

// fastmcpTwins pairs the fastmcp and fastmcp-slim entries of one lock file
// that hold the same version: from 3.3.0 fastmcp is a shell over
// fastmcp-slim, so both come from one decision and get one finding. It keeps
// the entry of the package the manifests declare (fastmcp when they declare
// both or neither), drops the other and returns it as the kept one's twin.
func fastmcpTwins(p *Pass) (drop map[*deps.Requirement]bool, twin map[*deps.Requirement]*deps.Requirement) {
	declared := map[string]bool{}
	for _, d := range p.Project.Resolution("fastmcp").Declared {
		declared[d.Name] = true
	}
	keepSlim := declared["fastmcp-slim"] && !declared["fastmcp"]
	drop, twin = map[*deps.Requirement]bool{}, map[*deps.Requirement]*deps.Requirement{}
	type key struct{ path, version string }
	full, slim := map[key]*deps.Requirement{}, map[key]*deps.Requirement{}
	for _, r := range p.Project.Requirements() {
		if !r.Locked || r.Version == "" {
			continue
		}
		k := key{r.Path, r.Version}
		switch r.Name {
		case "fastmcp":
			full[k] = r
		case "fastmcp-slim":
			slim[k] = r
		}
	}
	for k, f := range full {
		s := slim[k]
		if s == nil {
			continue
		}
		keep, other := f, s
		if keepSlim {
			keep, other = s, f
		}
		drop[other], twin[keep] = true, other
	}
	return drop, twin
}
