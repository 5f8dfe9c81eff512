package pyast

import "sort"

// spans finds the innermost of a set of properly nested byte ranges that
// contains an offset, without Node.Parent (tree-sitter answers Parent by
// searching down from the root, so walking up a tree costs O(depth²)).
// Ranges are added in order of their start, which is document order for the
// defs and classes the index visits.
type spans struct {
	starts []uint
	items  []span
}

type span struct {
	start, end uint
	parent     int // index of the innermost enclosing span, or -1
	fn         *Function
	class      *Class
}

// add appends a range that starts at or after every range added before.
func (s *spans) add(start, end uint, fn *Function, class *Class) {
	sp := span{start: start, end: end, parent: s.innermost(start), fn: fn, class: class}
	s.starts = append(s.starts, start)
	s.items = append(s.items, sp)
}

// innermost returns the index of the innermost range containing off, or -1.
func (s *spans) innermost(off uint) int {
	// The last range starting at or before off either contains it or ended
	// before it; every range containing off encloses that one, so walk up.
	i := sort.Search(len(s.starts), func(i int) bool { return s.starts[i] > off }) - 1
	for i >= 0 && off >= s.items[i].end {
		i = s.items[i].parent
	}
	return i
}
