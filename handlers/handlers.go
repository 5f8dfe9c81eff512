// Package handlers holds mcplint's MCP knowledge: which objects are MCP
// servers, which functions are registered on them as request handlers, and
// which functions of the project a handler can reach.
package handlers

import "github.com/mcplint/mcplint/pyast"

// Framework is the library a handler is registered with.
type Framework int

const (
	FrameworkUnknown  Framework = iota
	OfficialFastMCP             // mcp.server.fastmcp.FastMCP (1.x)
	OfficialLowLevel            // mcp.server.lowlevel.Server
	OfficialMCPServer           // mcp.server.mcpserver.MCPServer (2.x)
	PrefectFastMCP              // PrefectHQ fastmcp.FastMCP
	Custom                      // a configured in-house decorator
)

func (f Framework) String() string {
	return [...]string{"unknown", "mcp FastMCP", "mcp low-level Server", "mcp MCPServer", "fastmcp", "custom"}[f]
}

// Handler is one registered request handler.
type Handler struct {
	Func      *pyast.Function
	Module    *pyast.Module
	Kind      string // tool, resource, prompt, completion, call_tool, ...
	Framework Framework
	Server    string      // qualified name of the server object, when known
	Site      *pyast.Node // the decorator expression or registration call
	// Options are the keyword arguments of the registration (run_in_thread,
	// timeout, name, ...).
	Options map[string]*pyast.Node
	// Wrappers are project functions applied around the handler (stacked
	// decorators, wrapper calls at registration); they run on each request.
	Wrappers []*pyast.Function
}

// Index is the handler view of one project.
type Index struct {
	Handlers []*Handler
	reached  map[*pyast.Function][]*Handler
}

// ReachedFrom returns the handlers from which f can run, f's own handler first.
func (ix *Index) ReachedFrom(f *pyast.Function) []*Handler {
	if ix == nil {
		return nil
	}
	return ix.reached[f]
}

// Reachable reports whether any handler can run f.
func (ix *Index) Reachable(f *pyast.Function) bool { return len(ix.ReachedFrom(f)) > 0 }
