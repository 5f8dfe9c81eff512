package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcplint/mcplint/deps"
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
			"resolves to the newest release, 2.x, and is not flagged.",
		WhyIsThisBad: "In mcp 1.12.3 up to 1.30.0 (the last 1.x), a handler that returns normally after the client " +
			"cancelled its request makes the SDK respond twice: `AssertionError: Request already responded to` escapes " +
			"the server's task group and a stdio server exits. Clients do cancel (timeouts, a user interrupting a call). " +
			"Before 1.12.3 a cancel can stop the server even when the handler observes it, before 1.3.0 cancellation " +
			"is not supported at all, and before 1.27.0 closing the transport while handlers are in flight crashes too. " +
			"mcp 2.x never answers a cancelled request and drops the late result.",
		Example:    "# pyproject.toml\n[project]\ndependencies = [\"mcp[cli]>=1.20,<2\"]\n",
		UseInstead: "# pyproject.toml\n[project]\ndependencies = [\"mcp[cli]>=2,<3\"]\n",
		FixSafety: "Two alternatives. `mcp>=2,<3` is unsafe: 1.x to 2.x is a breaking migration " +
			"(`mcp.server.fastmcp.FastMCP` becomes `mcp.server.mcpserver.MCPServer`, the low-level `Server` decorators " +
			"become `on_*` constructor arguments, types move to snake_case, `McpError` becomes `MCPError`, sync " +
			"handlers run in a worker thread). Where the range admits versions below 1.27.0, the finding also suggests " +
			"raising the floor to `>=1.27.0` within 1.x (a minor release of the same API): it removes the transport-close " +
			"crashes but not the cancel race, so it is shown as advice (rule MCP105 applies it as its safe fix). A lock " +
			"file gets no edit: change the manifest, then re-lock. Where the project creates a server (and has no guard yet), " +
			"a third alternative stays on 1.x and writes the respond/cancel guard (below): unsafe, since it patches a " +
			"private attribute of the SDK.",
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
	for _, r := range p.Project.Requirements() {
		if r.Name != "mcp" || r.Constraint {
			continue
		}
		set := deps.ResolveOpen("mcp", r.Set)
		if !set.AdmitsRange("1.0.0", "2.0.0") || set.AdmitsRange("2.0.0.dev0", "") {
			continue
		}
		msg := fmt.Sprintf("%s admits only mcp 1.x: %s", reqText(p, r), strings.Join(mcp1Crashes(set), "; "))
		var fixes []Fix
		if r.Locked {
			msg += lockAdvice(p, r, "mcp")
			fixes = append(fixes, Fix{Message: "change the mcp requirement in the manifest to mcp>=2,<3 (" + mcp2Migration + "), then re-lock", Applicability: DisplayOnly})
		} else if r.VersionStart >= 0 {
			fixes = append(fixes, Fix{
				Message:       "require mcp>=2,<3 (" + mcp2Migration + ")",
				Applicability: Unsafe,
				Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: ">=2,<3"}},
			})
			// The floor raise stays on 1.x: it removes the crashes below
			// 1.27.0 but not the cancel crash, so the finding stays with a
			// narrower message (a partial fix).
			if text, ok := r.FloorSpecifier("1.27.0"); ok {
				fixes = append(fixes, Fix{
					Message:       fmt.Sprintf("stay on 1.x and raise the floor: %s%s (fixes the crashes below 1.27.0, not the cancel crash)", r.RawName, text),
					Applicability: Safe,
					Partial:       true,
					Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: text}},
				})
			}
		}
		if g, ok := GuardFix(p); ok && p.Project.MCP1() != deps.No {
			fixes = append(fixes, g)
		}
		reportRequirement(p, r, msg, fixes)
	}
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
func reqText(p *Pass, r *deps.Requirement) string {
	if r.Locked {
		return fmt.Sprintf("%s %s locked in %s", r.RawName, r.Version, path.Base(r.Path))
	}
	if f := p.Project.File(r.Path); f != nil && r.Start >= 0 && r.End <= len(f.Src) && r.Start < r.End && !r.Poetry {
		return "`" + strings.Join(strings.Fields(string(f.Src[r.Start:r.End])), " ") + "`"
	}
	return "`" + r.String() + "`"
}

// lockAdvice says what to do about a lock entry, and whether the lock
// disagrees with the manifests.
func lockAdvice(p *Pass, r *deps.Requirement, pkg string) string {
	s := fmt.Sprintf(". A lock file is not edited: change the %s requirement in the manifest and re-lock", pkg)
	for _, st := range p.Project.Resolution(pkg).Stale {
		if strings.HasPrefix(st, path.Base(r.Path)+" ") {
			s += " (the lock is stale: " + st + ")"
			break
		}
	}
	return s
}

// reportRequirement reports a finding on a requirement's text, anchored to
// the package name and the requirement's lines.
func reportRequirement(p *Pass, r *deps.Requirement, msg string, fixes []Fix) {
	f := p.Project.File(r.Path)
	if f == nil {
		return
	}
	start, end := f.Lines.Position(r.Start), f.Lines.Position(r.End)
	lineEnd := f.Lines.LineStart(end.Line+1) - 1
	if end.Line >= f.Lines.Lines() {
		lineEnd = len(f.Src)
	}
	p.Report(Diagnostic{
		Location:    SpanLocation(r.Path, f.Lines, r.Start, r.End),
		Message:     msg,
		Fixes:       fixes,
		Anchor:      r.Name,
		AnchorStart: f.Lines.LineStart(start.Line),
		AnchorEnd:   lineEnd,
	})
}
