package rules

import "github.com/mcplint/mcplint/deps"

// MCP107 reports a respond/cancel guard in a project that can only run
// mcp >= 2: mcp 2.x has no RequestResponder, so the guard is dead code (or
// an ImportError waiting to happen).
var mcp107 = Register(&Rule{
	Code:      "MCP107",
	Name:      "obsolete-respond-guard",
	Kind:      CodeRule,
	Severity:  SeverityNote,
	Fix:       FixNone,
	Tags:      []string{"cancellation", "mcp-2x", "guard", "cleanup"},
	Precision: "high",
	Doc: Doc{
		Summary: "A respond/cancel guard in a project that can only run mcp 2.x, which needs none",
		WhatItDoes: "Flags code that patches `mcp.shared.session.RequestResponder` (the mcp 1.x idempotence guard, " +
			"see MCP106) in a project whose dependencies admit only mcp >= 2.0.0: the locks, or the declared ranges " +
			"themselves, exclude 1.x. A range open above (`mcp>=1.0`, `fastmcp>=2`) is not enough, although a fresh " +
			"install picks 2.x: an environment made before still runs 1.x, where the guard is what stops the crash.",
		WhyIsThisBad: "mcp 2.x replaced `RequestResponder` with a dispatcher that never answers a cancelled request " +
			"and drops the late result, so the guard protects nothing; `from mcp.shared.session import " +
			"RequestResponder` fails there, and the patch relies on a private attribute that no longer exists.",
		Example: "# pyproject.toml: dependencies = [\"mcp>=2,<3\"]\n# server.py\nimport mcp_respond_guard  # noqa: F401\n" +
			"from mcp.server.mcpserver import MCPServer\n",
		UseInstead: "# pyproject.toml: dependencies = [\"mcp>=2,<3\"]\n# server.py (mcp_respond_guard.py deleted)\n" +
			"from mcp.server.mcpserver import MCPServer\n",
		FixSafety:  "No automatic fix: delete the guard module and its imports by hand.",
		References: []string{"https://github.com/modelcontextprotocol/python-sdk/releases"},
	},
	Run: runMCP107,
})

func runMCP107(p *Pass) {
	// The pins themselves must exclude mcp 1.x: an open range (mcp>=1.0,
	// fastmcp>=2) resolves to 2.x for a fresh install, but an environment made
	// before still runs 1.x, where removing the guard brings the crash back.
	if p.Project == nil || p.Project.PinsAdmitMCP1() != deps.No {
		return
	}
	for _, g := range p.Handlers.Guards() {
		p.ReportNode(g.Module, g.Stmt(), "this respond/cancel guard is not needed: the project can only run mcp >= 2, which has no RequestResponder and never "+
			"answers a cancelled request twice; remove the guard, with its imports", nil)
	}
}
