package rules

import (
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
)

// notAServer returns, for a project that is not an MCP server, the clause
// that says why: it registers no handler and constructs no server (a client,
// an agent, a benchmark that launches a server it does not contain). Its pin
// cannot crash anything, so the dependency rules report it as a note only
// (Exposure No: shown with --show-safe). "" when the project is a server, or
// when the run cannot tell: no handler index, a file given as the root, a uv
// workspace root (its members hold the code its lock pins), a folder whose
// PEP 723 script is a server (its requirements may install the script), a
// packaging folder whose code is copied in when it is built (CopiedIn).
func notAServer(p *Pass) string {
	if p.notServer == nil {
		why := serverVerdict(p)
		p.notServer = &why
	}
	return *p.notServer
}

func serverVerdict(p *Pass) string {
	if p.Handlers == nil || p.CodeUnseen || p.ScriptServer || len(p.CopiedIn) > 0 || p.Project != nil && p.Project.WorkspaceRoot() {
		return ""
	}
	if len(p.Handlers.Handlers) > 0 {
		return ""
	}
	if _, ok := p.Handlers.ServerConstruction(); ok {
		return ""
	}
	why := "no handler is registered and no server constructed in its Python code"
	if len(p.Modules) == 0 {
		why = "it has no Python file that mentions MCP"
	}
	return "; but this project is not an MCP server (" + why + "): a client or a tool that only uses the package " +
		"has no handler to crash on a cancel, so this is a note"
}

// serverExposure is the exposure a dependency finding carries: No for a
// project that is not a server (the engine then reports a note), else
// Unknown (the engine decides from the rule).
func serverExposure(p *Pass, msg string) (string, deps.Tri) {
	if why := notAServer(p); why != "" {
		return msg + why, deps.No
	}
	if len(p.CopiedIn) > 0 {
		msg += "; this folder has no Python code, but its manifest builds " + packageList(p.CopiedIn) +
			" into the wheel (copied in when it is built), so its pins are judged as a server's"
	}
	return msg, deps.Unknown
}

// fastmcpUnused returns, for a server project none of whose modules imports
// PrefectHQ fastmcp, or whose every handler is registered on another
// framework's server and which constructs no fastmcp server (fastmcp
// imported for annotations only), the clause that says so: fastmcp then
// sits in the dependencies (often only through the lock) but serves no
// handler, so its worker-thread crash cannot happen, and the mcp 1.x pin it
// holds is MCP001's finding. "" when fastmcp serves or the run cannot tell.
func fastmcpUnused(p *Pass) string {
	if p.fastmcpIdle == nil {
		why := fastmcpVerdict(p)
		p.fastmcpIdle = &why
	}
	return *p.fastmcpIdle
}

func fastmcpVerdict(p *Pass) string {
	if p.Handlers == nil || p.CodeUnseen || p.ScriptServer || len(p.Modules) == 0 || p.Project != nil && p.Project.WorkspaceRoot() {
		return ""
	}
	if servesNoFastmcp(p) {
		return "; but no handler of this project is registered on a fastmcp server and none is constructed: its " +
			"handlers do not run under fastmcp, so this is a note (the mcp 1.x pin is MCP001's finding)"
	}
	for _, m := range p.Modules {
		for _, kind := range []string{"import_statement", "import_from_statement"} {
			for n := range m.Nodes(kind) {
				for _, q := range m.ImportTargets(n) {
					if q == "fastmcp" || strings.HasPrefix(q, "fastmcp.") {
						return ""
					}
				}
			}
		}
	}
	return "; but no module of this project imports fastmcp: its handlers do not run under fastmcp, so this is a " +
		"note (the mcp 1.x pin is MCP001's finding)"
}

// packageList says "package a" or "packages a, b and c".
func packageList(names []string) string {
	if len(names) == 1 {
		return "package " + names[0]
	}
	return "packages " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// servesNoFastmcp reports whether the project has handlers, all of them on
// a known framework other than PrefectHQ fastmcp, no registration the
// analysis could not tell, and no construction of a fastmcp server.
func servesNoFastmcp(p *Pass) bool {
	ix := p.Handlers
	if len(ix.Handlers) == 0 {
		return false
	}
	for _, h := range ix.Handlers {
		if h.Framework == handlers.PrefectFastMCP || h.Framework == handlers.FrameworkUnknown {
			return false
		}
	}
	for _, u := range ix.UnresolvedCalls() {
		if u.Registration {
			return false
		}
	}
	for _, s := range ix.ServerSites() {
		if f, _ := ix.Server(s.Module, s.Call); f == handlers.PrefectFastMCP || f == handlers.FrameworkUnknown {
			return false
		}
	}
	return true
}
