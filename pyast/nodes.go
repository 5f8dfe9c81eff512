package pyast

import (
	"sort"
)

// nodeKinds are the node kinds Module.Nodes indexes.
var nodeKinds = []string{
	"call", "decorated_definition", "assignment", "import_statement", "import_from_statement", "comment",
}

// kindSet is a set of node kinds as a table indexed by symbol id.
type kindSet []bool

func newKindSet(kinds ...string) kindSet {
	s := make(kindSet, len(symbolNames))
	for _, k := range kinds {
		for _, sym := range symbolsOf(k) {
			s[sym] = true
		}
	}
	return s
}

func (s kindSet) has(sym uint16) bool { return int(sym) < len(s) && s[sym] }

var indexedKinds = newKindSet(nodeKinds...)

// nodeIndex is a module's nodes of the indexed kinds, in document order,
// collected by the same pass over the tree that builds the index.
type nodeIndex struct {
	byKind map[string][]*Node
}

// Nodes returns every node of the given kind in the module, in document
// order. Only the kinds in nodeKinds are indexed; others panic, so a caller
// cannot silently get an empty list.
func (m *Module) Nodes(kind string) []*Node {
	for _, k := range nodeKinds {
		if k == kind {
			return m.nodes.byKind[kind]
		}
	}
	panic("pyast: Nodes does not index " + kind)
}

// CallsIn returns the calls whose innermost enclosing function is f (calls
// in lambdas and class bodies nested in f included, calls in nested defs
// not), in document order.
func (m *Module) CallsIn(f *Function) []*Node {
	calls := m.Nodes("call")
	start, end := f.Node.StartByte(), f.Node.EndByte()
	i := sort.Search(len(calls), func(i int) bool { return calls[i].StartByte() >= start })
	var out []*Node
	for ; i < len(calls) && calls[i].StartByte() < end; i++ {
		if m.FuncAt(calls[i]) == f {
			out = append(out, calls[i])
		}
	}
	return out
}
