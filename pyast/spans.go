package pyast

// spans finds the innermost of a set of properly nested byte ranges that
// contains an offset, without Node.Parent (tree-sitter answers Parent by
// searching down from the root, so walking up a tree costs O(depth²)).
// Ranges are added in order of their start, which is document order for the
// defs and classes the index visits. A range is 16 bytes: a module's index
// holds two per function.
type spans struct {
	items []span
}

type span struct {
	start, end uint32
	parent     int32 // index of the innermost enclosing span, or -1
	owner      int32 // the index of its Function in Module.Funcs, or ^ of its Class in Module.Classes
}

// add appends a range that starts at or after every range added before;
// owner is as in span.
func (s *spans) add(start, end uint, owner int32) {
	s.items = append(s.items, span{start: uint32(start), end: uint32(end), parent: int32(s.innermost(start)), owner: owner})
}

// innermost returns the index of the innermost range containing off, or -1.
func (s *spans) innermost(off uint) int {
	// The last range starting at or before off either contains it or ended
	// before it; every range containing off encloses that one, so walk up.
	lo, hi := 0, len(s.items)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if uint(s.items[h].start) <= off {
			lo = h + 1
		} else {
			hi = h
		}
	}
	i := lo - 1
	for i >= 0 && off >= uint(s.items[i].end) {
		i = int(s.items[i].parent)
	}
	return i
}
