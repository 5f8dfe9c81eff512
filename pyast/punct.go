package pyast

// droppedPunctuation are the anonymous tokens a Module's tree does not keep:
// brackets, ":", "." and "=" carry no meaning of their own (their parent's
// kind and its named children say it all) and were a quarter of the nodes of
// a typical module. "," stays (fixes delete trailing commas), and so do
// keywords and operators ("async", "*", "not", "->", ...), which analyses
// test with HasChildKind.
var droppedPunctuation = newKindSet("(", ")", "[", "]", "{", "}", ":", ".", "=")

// dropPunctuation removes the droppedPunctuation leaves (those without a
// field, not missing, not errors) from a tree in preorder, in place, and
// returns the remaining nodes (t's first ones). Every other node keeps its
// kind, range and flags; sizes and parent offsets are recomputed.
func dropPunctuation(t []rawNode) []rawNode {
	// The open ancestors of the node being visited: where each one's
	// subtree ends in t (old indexes) and its new index.
	type anc struct{ end, new uint32 }
	var stack []anc
	w := uint32(0)
	for i := range t {
		n := &t[i]
		if n.size == 1 && n.field == 0 && n.flags == 0 && droppedPunctuation.has(n.symbol) {
			continue
		}
		// Close the ancestors whose subtree ends before i.
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if uint32(i) < top.end {
				break
			}
			t[top.new].size = w - top.new
			stack = stack[:len(stack)-1]
		}
		var up uint32
		if n.up != 0 {
			up = w - stack[len(stack)-1].new
		}
		// w <= i: t[w] is a node already visited (or n itself).
		size := n.size
		if uint32(i) != w {
			t[w].start, t[w].end, t[w].symbol, t[w].field, t[w].flags = n.start, n.end, n.symbol, n.field, n.flags
		}
		t[w].up, t[w].size = up, 1
		if size > 1 {
			stack = append(stack, anc{end: uint32(i) + size, new: w})
		}
		w++
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		t[top.new].size = w - top.new
		stack = stack[:len(stack)-1]
	}
	return t[:w]
}
