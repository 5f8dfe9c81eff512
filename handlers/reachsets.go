package handlers

import (
	"slices"

	"github.com/mcplint/mcplint/pyast"
)

// Which handlers reach a function, in time linear in the reached call
// graph. The reached functions are numbered (nodes) and their graph is
// condensed into strongly connected components: every function of a
// component is reached from the same handlers, the handlers that start in
// the component and those that reach any component with an edge into it.
// That set is computed once per component, on demand, after the sets of
// the components above it, and is shared, not copied: a component whose
// predecessors all have one set, and that starts no handler of its own,
// takes that set; a union equal to its largest part is that part. A chain
// of functions under one handler, or a cycle of any size, has one set.
// Nothing recurses with the depth of the graph (generated or hostile code
// has call chains tens of thousands deep).

// reachSet is a set of handlers as indexes into Index.Handlers, in
// registration order.
type reachSet struct {
	idx  []int32
	list []*Handler // the handlers of idx, made on first use
	seen uint32     // scratch for unions: the stamp of the last union that read this set
}

// reachSets is the condensed reached call graph and the memo of the handler
// sets of its components.
type reachSets struct {
	node map[*pyast.Function]int32 // reached function -> node
	comp []int32                   // node -> component
	// predOff and pred list the components with an edge into component c:
	// pred[predOff[c]:predOff[c+1]]. starts lists, the same way, the
	// handlers (distinct, in registration order) that start at a function
	// of component c.
	predOff, pred    []int32
	startOff, starts []int32
	set              []*reachSet // per component, nil until computed
	mark             []uint32    // per handler: the stamp of the union that last added it
	stamp            uint32
}

// newReachSets condenses a graph of n nodes, the successors of node v being
// succ[succOff[v]:succOff[v+1]]; startsAt(v) lists the handlers (indexes
// below handlers) that start at node v.
func newReachSets(succOff, succ []int32, handlers int, startsAt func(v int32) []int32) *reachSets {
	n := len(succOff) - 1
	comp, ncomp := condense(succOff, succ)
	r := &reachSets{comp: comp, set: make([]*reachSet, ncomp), mark: make([]uint32, handlers)}
	// Edges between components, reversed, counted then placed.
	r.predOff = make([]int32, ncomp+1)
	for v := 0; v < n; v++ {
		for _, w := range succ[succOff[v]:succOff[v+1]] {
			if comp[v] != comp[w] {
				r.predOff[comp[w]+1]++
			}
		}
	}
	for c := 0; c < ncomp; c++ {
		r.predOff[c+1] += r.predOff[c]
	}
	r.pred = make([]int32, r.predOff[ncomp])
	fill := slices.Clone(r.predOff[:ncomp])
	for v := 0; v < n; v++ {
		for _, w := range succ[succOff[v]:succOff[v+1]] {
			if cw := comp[w]; comp[v] != cw {
				r.pred[fill[cw]] = comp[v]
				fill[cw]++
			}
		}
	}
	// Handler starts by component.
	byComp := make([][]int32, ncomp)
	for v := 0; v < n; v++ {
		if hs := startsAt(int32(v)); len(hs) > 0 {
			byComp[comp[v]] = append(byComp[comp[v]], hs...)
		}
	}
	r.startOff = make([]int32, ncomp+1)
	for c, hs := range byComp {
		slices.Sort(hs)
		hs = slices.Compact(hs)
		r.starts = append(r.starts, hs...)
		r.startOff[c+1] = int32(len(r.starts))
	}
	return r
}

// condense numbers the strongly connected components of a graph (see
// newReachSets) with Tarjan's algorithm, run with an explicit stack.
// Components are numbered in the order Tarjan's algorithm completes them,
// a reverse topological order: an edge between two components goes from
// the higher number to the lower.
func condense(succOff, succ []int32) (comp []int32, ncomp int) {
	n := len(succOff) - 1
	order := make([]int32, n) // 1 + the visit rank of a node, 0: not visited yet
	low := make([]int32, n)
	comp = make([]int32, n)
	for i := range comp {
		comp[i] = -1 // visited and without a component: on the stack
	}
	var stack []int32 // visited nodes whose component is not complete
	type frame struct{ v, edge int32 }
	var path []frame // the depth-first path; edge is v's next successor to try
	rank := int32(0)
	visit := func(v int32) {
		rank++
		order[v], low[v] = rank, rank
		stack = append(stack, v)
		path = append(path, frame{v, succOff[v]})
	}
	for root := int32(0); int(root) < n; root++ {
		if order[root] != 0 {
			continue
		}
		visit(root)
		for len(path) > 0 {
			top := &path[len(path)-1]
			v := top.v
			if top.edge < succOff[v+1] {
				w := succ[top.edge]
				top.edge++
				if order[w] == 0 {
					visit(w)
				} else if comp[w] < 0 {
					low[v] = min(low[v], order[w])
				}
				continue
			}
			path = path[:len(path)-1]
			if low[v] == order[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = int32(ncomp)
					if w == v {
						break
					}
				}
				ncomp++
			}
			if len(path) > 0 {
				u := path[len(path)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comp, ncomp
}

// setOf returns the handler set of component c, computing first, in
// post-order of an explicit depth-first search over predecessors, the sets
// of the components above c that are not known yet. The condensation has no
// cycle, so a component is never met again on the path that leads to it.
func (r *reachSets) setOf(c int32) *reachSet {
	if s := r.set[c]; s != nil {
		return s
	}
	type frame struct{ c, pred int32 }
	path := []frame{{c, r.predOff[c]}}
	for len(path) > 0 {
		top := &path[len(path)-1]
		if top.pred < r.predOff[top.c+1] {
			p := r.pred[top.pred]
			top.pred++
			if r.set[p] == nil {
				path = append(path, frame{p, r.predOff[p]})
			}
			continue
		}
		r.set[top.c] = r.union(top.c)
		path = path[:len(path)-1]
	}
	return r.set[c]
}

// union computes the set of component c from its starts and the sets of its
// predecessors, all known.
func (r *reachSets) union(c int32) *reachSet {
	preds := r.pred[r.predOff[c]:r.predOff[c+1]]
	starts := r.starts[r.startOff[c]:r.startOff[c+1]]
	var first *reachSet
	same := true
	for _, p := range preds {
		if s := r.set[p]; first == nil {
			first = s
		} else if s != first {
			same = false
			break
		}
	}
	if len(starts) == 0 {
		if first == nil {
			return &reachSet{} // no handler (no reached function is so)
		}
		if same {
			return first
		}
	}
	r.stamp++
	var out []int32
	var largest *reachSet
	add := func(idx []int32) {
		for _, i := range idx {
			if r.mark[i] != r.stamp {
				r.mark[i] = r.stamp
				out = append(out, i)
			}
		}
	}
	for _, p := range preds {
		s := r.set[p]
		if s.seen == r.stamp {
			continue
		}
		s.seen = r.stamp
		if largest == nil || len(s.idx) > len(largest.idx) {
			largest = s
		}
		add(s.idx)
	}
	add(starts)
	if largest != nil && len(out) == len(largest.idx) {
		return largest // every other part is in it
	}
	slices.Sort(out)
	return &reachSet{idx: slices.Clip(out)}
}
