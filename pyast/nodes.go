package pyast

import (
	"sort"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// nodeKinds are the node kinds Module.Nodes indexes. One query collects them
// all in C, which costs a fraction of visiting every node from Go.
var nodeKinds = []string{
	"call", "decorated_definition", "assignment", "import_statement", "import_from_statement", "comment",
}

var nodesQuery = mustQuery(`[
  (call) (decorated_definition) (assignment) (import_statement) (import_from_statement) (comment)
] @n`)

// nodeIndex is a module's nodes of the indexed kinds, in document order.
type nodeIndex struct {
	once   sync.Once
	byKind map[string][]*Node
}

// Nodes returns every node of the given kind in the module, in document
// order. Only the kinds in nodeKinds are indexed; others panic, so a caller
// cannot silently get an empty list.
func (m *Module) Nodes(kind string) []*Node {
	m.nodes.once.Do(func() {
		m.nodes.byKind = map[string][]*Node{}
		qc := sitter.NewQueryCursor()
		defer qc.Close()
		matches := qc.Matches(nodesQuery, m.Root, m.Src)
		for match := matches.Next(); match != nil; match = matches.Next() {
			for _, c := range match.Captures {
				n := c.Node
				k := n.Kind()
				m.nodes.byKind[k] = append(m.nodes.byKind[k], &n)
			}
		}
	})
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
