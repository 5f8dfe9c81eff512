package handlers

// Uses of APIs that only mcp 1.x has (SPEC section 2: migrating to 2.x
// renames mcp.server.fastmcp.FastMCP to mcp.server.mcpserver.MCPServer,
// turns the low-level Server decorators into on_* constructor arguments and
// McpError into MCPError). Code that uses them does not run on mcp 2.x: the
// import fails, or the decorator is an AttributeError when the module loads.

import (
	"strings"
	"sync"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// MCP1API is one use of an API that mcp 2 removed.
type MCP1API struct {
	// What names the API: "mcp.server.fastmcp", "mcp.server.FastMCP",
	// "McpError", or "the 1.x low-level decorator @server.call_tool()".
	What   string
	Module *pyast.Module
	Node   *pyast.Node // the import statement, or the decorator
	// Serves says that the server needs it to run: the use is in a module
	// (not a test) that holds a registered handler or its registration,
	// defines a function a handler runs, or constructs the server; and an
	// import has no fallback (it is neither in the body of a try whose
	// handler catches ImportError, nor in an except handler). A use that
	// does not serve (a test, an example the server never loads, a
	// try/except ImportError shim) does not tie the project to mcp 1.x.
	Serves bool
}

// Phrase says what the code does with the API, for messages: "imports
// mcp.server.fastmcp", "registers a handler with the 1.x low-level decorator
// @server.call_tool()".
func (u MCP1API) Phrase() string {
	if strings.HasPrefix(u.What, "the 1.x") {
		return "registers a handler with " + u.What
	}
	return "imports " + u.What
}

// MCP1APIs returns the uses of APIs that mcp 2 removed in mods: imports of
// mcp.server.fastmcp (and mcp.server.FastMCP) and McpError, in module and
// source order, then the handlers of ix registered with the 1.x low-level
// Server decorators (@server.call_tool()). ix may be nil (imports only,
// none of which then serves).
func MCP1APIs(mods []*pyast.Module, ix *Index) []MCP1API {
	serving := ix.servingModules()
	var out []MCP1API
	for _, m := range mods {
		for _, kind := range []string{"import_statement", "import_from_statement"} {
			for n := range m.Nodes(kind) {
				seen := map[string]bool{}
				for _, t := range m.ImportTargets(n) {
					what := ""
					switch {
					case t == "mcp.server.fastmcp" || strings.HasPrefix(t, "mcp.server.fastmcp."):
						what = "mcp.server.fastmcp"
					case t == "mcp.server.FastMCP":
						what = "mcp.server.FastMCP"
					case t == "mcp.McpError" || t == "mcp.shared.exceptions.McpError":
						what = "McpError"
					}
					if what != "" && !seen[what] {
						seen[what] = true
						out = append(out, MCP1API{What: what, Module: m, Node: n, Serves: serving[m] && !hasImportFallback(m, n)})
					}
				}
			}
		}
	}
	if ix == nil {
		return out
	}
	for _, h := range ix.Handlers {
		if h.Framework != OfficialLowLevel || h.Site == nil || h.SiteModule == nil {
			continue
		}
		for _, d := range h.Func.Decorators {
			if d.StartByte() == h.Site.StartByte() {
				m := h.SiteModule
				out = append(out, MCP1API{What: "the 1.x low-level decorator @" + escape.Line(m.Text(d), 40), Module: m, Node: d,
					Serves: !isTestModule(m) && !isTestModule(h.Module)})
				break
			}
		}
	}
	return out
}

// mcp1Uses is Index.MCP1APIs' answer, found once.
type mcp1Uses struct {
	once sync.Once
	uses []MCP1API
}

// MCP1APIs returns MCP1APIs of the modules ix was built from and ix, found
// once: the engine asks it of every project (what ties the code to mcp
// 1.x), and the dependency rules again (what blocks a bump).
func (ix *Index) MCP1APIs() []MCP1API {
	ix.mcp1.once.Do(func() { ix.mcp1.uses = MCP1APIs(ix.builder.mods, ix) })
	return ix.mcp1.uses
}

// servingModules returns the modules whose code the server runs when it
// starts or serves: those holding a registered handler or its registration,
// a function a handler runs, or a server construction; test modules never.
func (ix *Index) servingModules() map[*pyast.Module]bool {
	out := map[*pyast.Module]bool{}
	if ix == nil {
		return out
	}
	add := func(m *pyast.Module) {
		if m != nil && !isTestModule(m) {
			out[m] = true
		}
	}
	for _, h := range ix.Handlers {
		add(h.Module)
		add(h.SiteModule)
	}
	for _, r := range ix.reachable {
		if !ix.unreached[r.Func.Qual] {
			add(r.Module)
		}
	}
	for _, s := range ix.servers {
		add(s.Module)
	}
	return out
}

// hasImportFallback reports whether an import statement runs only
// conditionally on the import machinery: it is in an except handler (the
// fallback of a try), or in the body of a try with a handler that catches
// ImportError (or ModuleNotFoundError, Exception, BaseException, or a bare
// except). Only the enclosing function counts.
func hasImportFallback(m *pyast.Module, n *pyast.Node) bool {
	child := n
	for p := n.Parent(); p != nil && !pyast.IsFunctionBoundary(p); child, p = p, p.Parent() {
		switch p.Kind() {
		case "except_clause", "except_group_clause":
			return true
		case "try_statement":
			if body := p.ChildByFieldName("body"); body == nil || body.Id() != child.Id() {
				continue // in else or finally: runs whatever the imports did
			}
			for _, c := range pyast.NamedChildren(p) {
				if (c.Kind() == "except_clause" || c.Kind() == "except_group_clause") && catchesImportError(m, c) {
					return true
				}
			}
		}
	}
	return false
}

// catchesImportError reports whether an except clause catches ImportError
// (by name: a class of the project that shadows ImportError is not
// followed).
func catchesImportError(m *pyast.Module, clause *pyast.Node) bool {
	typ := clause.ChildByFieldName("value")
	if typ == nil {
		return true // a bare except
	}
	if typ.Kind() == "as_pattern" && typ.NamedChildCount() > 0 {
		typ = typ.NamedChild(0)
	}
	typ = pyast.Unparen(typ)
	names := []*pyast.Node{typ}
	if typ.Kind() == "tuple" || typ.Kind() == "list" {
		names = pyast.NamedChildren(typ)
	}
	for _, t := range names {
		switch m.Text(pyast.Unparen(t)) {
		case "ImportError", "ModuleNotFoundError", "Exception", "BaseException",
			"builtins.ImportError", "builtins.ModuleNotFoundError", "builtins.Exception", "builtins.BaseException":
			return true
		}
	}
	return false
}
