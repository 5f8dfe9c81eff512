package pyast

import (
	"iter"
	"sort"
)

// nodeKinds are the node kinds Module.Nodes indexes.
var nodeKinds = [...]string{
	"call", "decorated_definition", "assignment", "import_statement", "import_from_statement", "comment",
	"with_statement", "for_statement",
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

// indexedSlot maps a symbol id to the index of its kind in nodeKinds, or -1.
var indexedSlot = func() []int8 {
	s := make([]int8, 1<<16)
	for i := range s {
		s[i] = -1
	}
	for k, kind := range nodeKinds {
		for _, sym := range symbolsOf(kind) {
			s[sym] = int8(k)
		}
	}
	return s
}()

// nodeIndex is a module's nodes of the indexed kinds, in document order,
// collected by the same pass over the tree that builds the index; byKind[k]
// holds the nodes of kind nodeKinds[k], as their indexes in Module.tree (half
// the size of pointers).
type nodeIndex struct {
	byKind [len(nodeKinds)][]uint32
}

// Nodes returns every node of the given kind in the module, in document
// order. Only the kinds in nodeKinds are indexed; others panic, so a caller
// cannot silently get an empty list.
func (m *Module) Nodes(kind string) iter.Seq[*Node] {
	list := m.nodesOf(kind)
	return func(yield func(*Node) bool) {
		for _, i := range list {
			if !yield(&m.tree[i]) {
				return
			}
		}
	}
}

func (m *Module) nodesOf(kind string) []uint32 {
	for k := range nodeKinds {
		if nodeKinds[k] == kind {
			return m.nodes.byKind[k]
		}
	}
	panic("pyast: Nodes does not index " + kind)
}

// CallsIn returns the calls whose innermost enclosing function is f (calls
// in lambdas and class bodies nested in f included, calls in nested defs
// not), in document order.
func (m *Module) CallsIn(f *Function) []*Node {
	calls := m.nodesOf("call")
	start, end := f.Node.StartByte(), f.Node.EndByte()
	i := sort.Search(len(calls), func(i int) bool { return m.tree[calls[i]].StartByte() >= start })
	var out []*Node
	for ; i < len(calls) && m.tree[calls[i]].StartByte() < end; i++ {
		if c := &m.tree[calls[i]]; m.FuncAt(c) == f {
			out = append(out, c)
		}
	}
	return out
}
