package handlers

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// ServerUse is a place where the project builds an MCP server (ServerSites
// holds only the direct constructions of a server class).
type ServerUse struct {
	Module *pyast.Module
	Node   *pyast.Node
	What   string // "constructs mcp FastMCP", "subclasses fastmcp", "takes a fastmcp parameter"
}

// ServerConstruction returns the first place, in module order, where the
// project constructs an MCP server (a call of a server class or of a project
// subclass of one), defines a subclass of one, or takes one as an annotated
// parameter (a library that registers handlers on its users' servers). A
// project with none of these and no handler is not an MCP server (a client,
// an agent, a benchmark that launches a server it does not contain).
func (ix *Index) ServerConstruction() (ServerUse, bool) {
	if ix == nil || ix.builder == nil {
		return ServerUse{}, false
	}
	b := ix.builder
	// Constructions were found once, in module and source order, by
	// findGuards (ServerSites); the first of each module is the one to name.
	firstCall := map[*pyast.Module]*pyast.Node{}
	for _, s := range ix.servers {
		if firstCall[s.Module] == nil {
			firstCall[s.Module] = s.Call
		}
	}
	for _, m := range b.mods {
		if call := firstCall[m]; call != nil {
			return ServerUse{m, call, "constructs " + b.serverClassOf(m, pyast.Callee(call)).String()}, true
		}
		for _, c := range m.Classes {
			for _, base := range c.Bases {
				if f := b.serverClassOf(m, base); f != FrameworkUnknown {
					return ServerUse{m, c.Node, "subclasses " + f.String()}, true
				}
			}
		}
		for _, fn := range m.Funcs {
			for _, p := range fn.Params {
				ann := p.Annotation()
				if ann == nil {
					continue
				}
				if ann.Kind() == "type" && ann.NamedChildCount() == 1 {
					ann = ann.NamedChild(0)
				}
				if f := b.serverClassOf(m, ann); f != FrameworkUnknown {
					return ServerUse{m, p.Node, "takes a " + f.String() + " parameter"}, true
				}
			}
		}
	}
	return ServerUse{}, false
}

// serverClassOf returns the framework of the server class that n names: an
// MCP server class, or a project subclass of one, or a fastmcp factory that
// builds a server (FastMCP.from_openapi); FrameworkUnknown otherwise.
func (b *builder) serverClassOf(m *pyast.Module, n *pyast.Node) Framework {
	return b.serverClassOfNames(b.resolveNames(m, n))
}

// serverClassOfNames is serverClassOf with the expression's names resolved.
func (b *builder) serverClassOfNames(ns names) Framework {
	for i, q := range ns.quals {
		if f := extServer(q); f != FrameworkUnknown {
			return f
		}
		if c := ns.syms[i].class; c != nil {
			if f := b.serverClassValue(c); f != FrameworkUnknown {
				return f
			}
		}
		// A factory class method of a project subclass of fastmcp's
		// FastMCP (Sub.from_openapi).
		if j := strings.LastIndexByte(q, '.'); j >= 0 && serverFactories[q[j+1:]] {
			if c := b.lookup(q[:j]).class; c != nil && b.serverClassValue(c) == PrefectFastMCP {
				return PrefectFastMCP
			}
		}
	}
	return FrameworkUnknown
}
