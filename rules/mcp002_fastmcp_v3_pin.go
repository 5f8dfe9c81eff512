package rules

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/deps"
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
			"admits the 4.0 pre-releases.",
		WhyIsThisBad: "fastmcp below 4 runs on mcp 1.x, where a handler that returns after a client's cancel crashes " +
			"the server. fastmcp 3.x makes this likely: it runs sync `def` tools, resources and prompts in a worker " +
			"thread without abandon, so a cancelled sync tool always returns normally. fastmcp 2.14.x and 3.x also " +
			"override `Server.run()` without mcp 1.27.0's transport-close cancel. fastmcp 4 runs on mcp 2.x, which " +
			"drops the late result.",
		Example:    "# requirements.txt\nfastmcp>=3,<4\n",
		UseInstead: "# requirements.txt\nfastmcp>=4,<5\n",
		FixSafety: "`fastmcp>=4,<5` is unsafe: fastmcp 4 moves to mcp 2.x, a breaking migration for code that uses the " +
			"SDK's types directly. A lock file gets no edit: change the manifest, then re-lock. Where the project creates " +
			"a server (and has no guard yet), an alternative stays on fastmcp 3 and writes the respond/cancel guard " +
			"(below): unsafe, since it patches a private attribute of the SDK.",
		References: []string{"https://github.com/PrefectHQ/fastmcp/releases"},
	},
	Run: runMCP002,
})

func runMCP002(p *Pass) {
	for _, r := range p.Project.Requirements() {
		if r.Name != "fastmcp" && r.Name != "fastmcp-slim" || r.Constraint {
			continue
		}
		set := deps.ResolveOpen("fastmcp", r.Set)
		if !set.AdmitsRange("", "4.0.0") || set.AdmitsRange("4.0.0.dev0", "") {
			continue
		}
		msg := fmt.Sprintf("%s admits only %s below 4: %s", reqText(p, r), r.RawName, strings.Join(fastmcp3Crashes(set), "; "))
		var fixes []Fix
		if r.Locked {
			msg += lockAdvice(p, r, "fastmcp")
			fixes = append(fixes, Fix{Message: "change the fastmcp requirement in the manifest to fastmcp>=4,<5 (mcp 2.x, a breaking migration), then re-lock", Applicability: DisplayOnly})
		} else if r.VersionStart >= 0 {
			fixes = append(fixes, Fix{
				Message:       fmt.Sprintf("require %s>=4,<5 (it runs on mcp 2.x: a breaking migration)", r.RawName),
				Applicability: Unsafe,
				Edits:         []Edit{{Path: r.Path, Start: r.VersionStart, End: r.VersionEnd, New: ">=4,<5"}},
			})
		}
		if g, ok := GuardFix(p); ok && p.Project.MCP1() != deps.No {
			fixes = append(fixes, g)
		}
		reportRequirement(p, r, msg, fixes)
	}
}

// fastmcp3Crashes names what the fastmcp versions set admits expose.
func fastmcp3Crashes(set deps.Set) []string {
	out := []string{"it pulls mcp 1.x, where a handler that returns after a client's cancel crashes the server"}
	if set.AdmitsRange("3.0.0", "4.0.0") {
		out = append(out, "fastmcp 3.x runs sync def tools, resources and prompts in a worker thread without abandon, so a cancelled sync handler returns normally and crashes it")
	}
	if set.AdmitsRange("2.14.0", "4.0.0") {
		out = append(out, "fastmcp 2.14/3.x override Server.run() without mcp 1.27.0's transport-close cancel")
	}
	return out
}
