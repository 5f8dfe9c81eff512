// Package handlers holds mcplint's MCP knowledge: which objects are MCP
// servers, which functions are registered on them as request handlers, and
// which functions of the project a handler can reach.
package handlers

import (
	"sync"

	"github.com/mcplint/mcplint/pyast"
)

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
	// SiteModule is the module that holds Site (mcp.tool(fn) in server.py
	// can register fn defined in tools.py).
	SiteModule *pyast.Module
	// Options are the keyword arguments of the registration (run_in_thread,
	// timeout, name, ...).
	Options map[string]*pyast.Node
	// Wrappers are project functions applied around the handler (stacked
	// decorators, wrapper calls at registration); they run on each request.
	Wrappers []*pyast.Function
	// AltWrappers are the wrappers of another registration of the same
	// function when one registration has none (it is served bare too):
	// they run on the requests that registration serves.
	AltWrappers []*pyast.Function
}

// Index is the handler view of one project.
type Index struct {
	Handlers []*Handler

	// reached memoizes reachedFrom for the functions of handlers (their
	// own handlers come first); sets answers for every reached function
	// (see reach and reachsets.go); handlerFns are the functions
	// registered as handlers.
	reached    map[*pyast.Function][]*Handler
	sets       *reachSets
	handlerFns map[*pyast.Function]bool
	callers    map[*pyast.Function][]CallSite
	funcs      map[string]FuncRef
	moduleOf   map[*pyast.Function]*pyast.Module
	reachable  []FuncRef
	unreached  map[string]bool
	builder    *builder
	guards     []*Guard // see guard.go
	// projectGuard covers every serving of the project, handlerGuard
	// each handler whose servings all installed one (guardServers).
	projectGuard *Guard
	handlerGuard map[*Handler]*Guard
	unguarded    []*pyast.Module // the starts that serve unguarded
	servers      []ServerSite    // calls that construct a server
	mcp1         mcp1Uses        // see MCP1APIs
	// unresolved are the unresolved calls of handler reach, possible the
	// index with the fallback's edges, fallback those edges by caller (on
	// the possible index only): unresolved.go.
	unresolved []UnresolvedCall
	possible   *Index
	fallback   map[*pyast.Function][]fallbackEdge
	chainOnce  sync.Once // makes chainFrom, PossibleChain's search
	chainFrom  map[chainState]chainStep
	// runs memoizes RunsServer: the guard fix asks it of every server
	// site for each rule that offers the fix.
	runsMu sync.Mutex
	runs   map[*pyast.Module]bool
}

// ReachedFrom returns the handlers from which f can run, f's own handler first.
func (ix *Index) ReachedFrom(f *pyast.Function) []*Handler {
	if ix == nil {
		return nil
	}
	return ix.reachedFrom(f)
}

// Reachable reports whether any handler can run f.
func (ix *Index) Reachable(f *pyast.Function) bool { return len(ix.ReachedFrom(f)) > 0 }

// FuncRef is a function with the module that defines it.
type FuncRef struct {
	Module *pyast.Module
	Func   *pyast.Function
}

// CallSite is a place where one project function calls (or awaits) another.
type CallSite struct {
	Caller FuncRef
	Call   *pyast.Node // the call node
	Callee FuncRef
}

// Callers returns the call sites in reachable code that call f.
func (ix *Index) Callers(f *pyast.Function) []CallSite {
	if ix == nil {
		return nil
	}
	return ix.callers[f]
}

// Function returns the project function with a qualified name.
func (ix *Index) Function(qual string) (FuncRef, bool) {
	if ix == nil {
		return FuncRef{}, false
	}
	r, ok := ix.funcs[qual]
	return r, ok
}

// Module returns the module that defines f.
func (ix *Index) Module(f *pyast.Function) *pyast.Module {
	if ix == nil {
		return nil
	}
	return ix.moduleOf[f]
}

// ReachableFuncs returns every function some handler can run, in a stable order.
func (ix *Index) ReachableFuncs() []FuncRef {
	if ix == nil {
		return nil
	}
	return ix.reachable
}
