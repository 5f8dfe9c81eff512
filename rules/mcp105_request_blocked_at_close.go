package rules

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// MCP105 finds handler-reachable server-to-client requests (sampling,
// roots, elicitation, ping) in projects whose mcp can be older than 1.27.0,
// or that run under fastmcp 2.14 / 3.x, where closing the transport while
// such a request waits crashes the server.
//
// Recognised: the calls checkpoint.ServerRequest recognises (session
// create_message / list_roots / elicit / elicit_form / elicit_url /
// send_ping; Context elicit / elicit_url / sample / sample_step /
// list_roots), in any function a handler reaches, in any module of the
// project, on receivers known as a session or a Context by name, type or
// what the value-flow engine says they can be (self.ctx set in __init__
// from a handler's Context). Not recognised: the same methods on receivers
// that are neither (an untyped variable named client, ...).
var mcp105 = Register(&Rule{
	Code:      "MCP105",
	Name:      "request-blocked-at-close",
	Kind:      CodeRule,
	Reach:     true,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"transport", "mcp-1x", "crash", "dependencies"},
	Precision: "high",
	Exposure:  mcp105Exposure,
	Doc: Doc{
		Summary: "A handler waits on a server-to-client request on an mcp that crashes when the transport closes meanwhile",
		WhatItDoes: "Flags, in code a request handler can run, a server-to-client request that waits for the client's " +
			"answer (`session.create_message()`, `session.list_roots()`, `session.elicit()`, `send_ping()`, and the " +
			"`Context` helpers `ctx.elicit()`, `ctx.sample()`, `ctx.list_roots()`) when the project's `mcp` admits " +
			"versions below 1.27.0, or when it runs under PrefectHQ fastmcp 2.14.x or 3.x.",
		WhyIsThisBad: "Before mcp 1.27.0, closing the transport (a stdio client exiting: stdin EOF) while handlers are " +
			"in flight crashes the server with closed-stream errors, and with \"dictionary changed size during " +
			"iteration\" when handlers are blocked on a request to the client, which will never answer. mcp 1.27.0 " +
			"cancels in-flight handlers at close. fastmcp 2.14.x and 3.x override `Server.run()` without that cancel, so " +
			"they stay exposed whatever mcp they pull.",
		Example: "# pyproject.toml: dependencies = [\"mcp>=1.20,<2\"]\n@mcp.tool()\nasync def pick(ctx: Context) -> str:\n" +
			"    roots = await ctx.session.list_roots()\n    return roots.roots[0].uri\n",
		UseInstead: "# pyproject.toml: dependencies = [\"mcp>=1.27.0,<2\"]  (or mcp>=2,<3)\n@mcp.tool()\n" +
			"async def pick(ctx: Context) -> str:\n    roots = await ctx.session.list_roots()\n    return roots.roots[0].uri\n",
		FixSafety: "Raising the mcp floor to 1.27.0 within 1.x is safe: 1.27.0 is a minor release of the same " +
			"API. The pin keeps its style (`==1.20.0` becomes `==1.27.0`, `~=1.22` becomes `~=1.27`, a range gets the " +
			"new floor); next to a comment that mentions mcp or the pinned version, or on a `--hash` line, it is " +
			"advice only. Re-lock afterwards. Under fastmcp 2.14/3.x the mcp floor does not help; the advice is to move to " +
			"fastmcp 4 (mcp 2.x), a breaking migration, so it is display-only.",
		References: []string{
			"https://github.com/modelcontextprotocol/python-sdk/releases/tag/v1.27.0",
			"https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation",
		},
	},
	Run: runMCP105,
})

func mcp105Exposure(p *deps.Project) deps.Tri {
	return p.MCPAdmits("", "1.27.0").Or(fastmcpCloseExposure(p))
}

// fastmcpCloseExposure tells whether the project can run fastmcp 2.14 / 3.x.
// A project whose files say which mcp it runs and never name fastmcp does
// not use it (deps answers Unknown for an undeclared package).
func fastmcpCloseExposure(p *deps.Project) deps.Tri {
	if p == nil {
		return deps.Unknown
	}
	if p.Resolution("mcp").Known && !p.Resolution("fastmcp").Known {
		return deps.No
	}
	return p.FastMCPAdmits("2.14.0", "4.0.0")
}

func runMCP105(p *Pass) {
	fixes := mcp105Fixes(p)
	cp := newRequestEnds(p).checkpoints
	for _, ref := range p.Handlers.ReachableFuncs() {
		m, f := ref.Module, ref.Func
		if f.Body == nil {
			continue
		}
		pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
			if n.Kind() != "call" {
				return true
			}
			what, ok := cp.ServerRequest(m, n)
			if !ok {
				return true
			}
			// The call's text is the headline's subject: cut, since code
			// can write it at any length.
			msg := fmt.Sprintf("%s can crash the server when the transport closes: it waits for the client's answer; if the transport closes meanwhile (stdin EOF), %s",
				escape.Line(what, 48), mcp105Cause(p))
			if g := p.Handlers.GuardOf(f); g != nil {
				msg += fmt.Sprintf("; the respond/cancel guard (%s) closes only the cancel crash, not this one",
					where(p, g.Module, int(g.Stmt().StartByte())))
			}
			reportIn(p, f, NodeLocation(m, n), msg, fixes...)
			return true
		})
	}
}

// mcp105Cause names what makes the project exposed.
func mcp105Cause(p *Pass) string {
	switch {
	case p.Project.FastMCPAdmits("2.14.0", "4.0.0") == deps.Yes:
		return "fastmcp 2.14/3.x's Server.run() does not cancel in-flight handlers and the server crashes"
	case p.Project.MCPAdmits("", "1.27.0") == deps.Yes:
		return "mcp < 1.27.0 crashes (\"dictionary changed size during iteration\")"
	}
	return "mcp < 1.27.0 and fastmcp 2.14/3.x crash (\"dictionary changed size during iteration\")"
}

// mcp105Fixes: raise the mcp floor where the mcp pin is the cause; advice
// where fastmcp 2.14/3.x is.
func mcp105Fixes(p *Pass) []Fix {
	if p.Project.FastMCPAdmits("2.14.0", "4.0.0") == deps.Yes {
		return []Fix{{
			Message:       "fastmcp 2.14/3.x lacks the 1.27.0 transport-close fix whatever mcp it pulls: upgrade to fastmcp>=4,<5 (mcp 2.x; a breaking migration)",
			Applicability: DisplayOnly,
		}}
	}
	if p.Project.MCPAdmits("", "1.27.0") != deps.Yes {
		return nil // also without a project
	}
	if path, start, end, text, ok := p.Project.FloorEdit("mcp", "1.27.0"); ok {
		how := "raise the mcp floor: mcp" + text
		if strings.HasPrefix(text, "==") || text == "1.27.0" {
			how = "pin mcp" + text + ", the first release with the transport-close fix (an exact pin stays exact)"
		}
		f := Fix{
			Message:       how + " (then re-lock)",
			Applicability: Safe,
			Edits:         []Edit{{Path: path, Start: start, End: end, New: text}},
		}
		// As for MCP001: a deliberate pin or a --hash line is not edited.
		for _, r := range p.Project.Requirements() {
			if r.Path != path || r.VersionStart != start || r.Name != "mcp" {
				continue
			}
			if c, pinned := pinComment(p, r, "mcp"); pinned {
				f.Message += ": not applied, a comment there pins it deliberately (" + c + ")"
				f.Applicability, f.Edits = DisplayOnly, nil
			} else if hashPinned(p, r) {
				f.Message += hashAdvice
				f.Applicability, f.Edits = DisplayOnly, nil
			}
		}
		return []Fix{f}
	}
	return []Fix{{Message: "raise the mcp requirement to >=1.27.0 (within 1.x) and re-lock", Applicability: DisplayOnly}}
}
