package pyast

// Walk visits n and its descendants in source order. visit returns false to
// skip a node's children. It uses one TreeCursor for the whole walk, which is
// much cheaper than Child calls from Go.
func Walk(n *Node, visit func(n *Node) bool) {
	if n == nil {
		return
	}
	c := n.Walk()
	defer c.Close()
	depth := 0
	for {
		if visit(c.Node()) && c.GotoFirstChild() {
			depth++
			continue
		}
		for {
			if depth == 0 {
				return
			}
			if c.GotoNextSibling() {
				break
			}
			c.GotoParent()
			depth--
		}
	}
}

// NamedChildren returns the named children of n.
func NamedChildren(n *Node) []*Node {
	if n == nil {
		return nil
	}
	count := n.NamedChildCount()
	out := make([]*Node, 0, count)
	for i := uint(0); i < count; i++ {
		out = append(out, n.NamedChild(i))
	}
	return out
}

// Children returns all children of n, anonymous ones included.
func Children(n *Node) []*Node {
	if n == nil {
		return nil
	}
	count := n.ChildCount()
	out := make([]*Node, 0, count)
	for i := uint(0); i < count; i++ {
		out = append(out, n.Child(i))
	}
	return out
}

// HasChildKind reports whether n has a direct child (named or not) of kind.
func HasChildKind(n *Node, kind string) bool {
	for _, c := range Children(n) {
		if c.Kind() == kind {
			return true
		}
	}
	return false
}

// Unparen strips parentheses around an expression.
func Unparen(n *Node) *Node {
	for n != nil && n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n
}

// Ancestor returns the nearest ancestor of n whose kind is one of kinds.
func Ancestor(n *Node, kinds ...string) *Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		for _, k := range kinds {
			if p.Kind() == k {
				return p
			}
		}
	}
	return nil
}

// IsFunctionBoundary reports whether n starts a new scope of code that does
// not run where it is written (a nested def, a lambda or a class body).
func IsFunctionBoundary(n *Node) bool {
	switch n.Kind() {
	case "function_definition", "lambda", "class_definition":
		return true
	}
	return false
}
