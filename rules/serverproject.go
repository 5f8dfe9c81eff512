package rules

import "github.com/mcplint/mcplint/deps"

// notAServer returns, for a project that is not an MCP server, the clause
// that says why: it registers no handler and constructs no server (a client,
// an agent, a benchmark that launches a server it does not contain). Its pin
// cannot crash anything, so the dependency rules report it as a note only
// (Exposure No: shown with --show-safe). "" when the project is a server, or
// when the run cannot tell: no handler index, a file given as the root, a uv
// workspace root (its members hold the code its lock pins).
func notAServer(p *Pass) string {
	if p.Handlers == nil || p.CodeUnseen || p.Project != nil && p.Project.WorkspaceRoot() {
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
	return msg, deps.Unknown
}
