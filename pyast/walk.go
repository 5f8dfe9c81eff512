package pyast

// Walk visits n and its descendants in source order. visit returns false to
// skip a node's children. Nodes are stored in preorder, so a walk is a scan
// of a range of the tree's node array.
func Walk(n *Node, visit func(n *Node) bool) {
	if n == nil {
		return
	}
	for i, end := uint32(0), n.sizeOf(); i < end; {
		c := n.at(i)
		if visit(c) {
			i++
		} else {
			i += c.sizeOf()
		}
	}
}

// NamedChildren returns the named children of n.
func NamedChildren(n *Node) []*Node {
	if n == nil {
		return nil
	}
	out := make([]*Node, 0, n.NamedChildCount())
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if c.meta&flagNamed != 0 {
			out = append(out, c)
		}
	}
	return out
}

// Children returns all children of n, anonymous ones included (but not the
// punctuation the tree does not keep: see droppedPunctuation).
func Children(n *Node) []*Node {
	if n == nil {
		return nil
	}
	out := make([]*Node, 0, n.ChildCount())
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		out = append(out, c)
	}
	return out
}

// HasChildKind reports whether n has a direct child (named or not) of kind;
// never for the droppedPunctuation kinds, which the tree does not keep.
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
	for n != nil && n.Kind() == "parenthesized_expression" {
		var inner *Node
		for i := range n.NamedChildCount() {
			c := n.NamedChild(i)
			if c.Kind() == "comment" {
				continue // (x  # why\n)
			}
			if inner != nil {
				return n
			}
			inner = c
		}
		if inner == nil {
			return n
		}
		n = inner
	}
	return n
}

// WithClause returns the with_clause of a with statement (its items), or
// nil.
func WithClause(s *Node) *Node {
	for _, c := range NamedChildren(s) {
		if c.Kind() == "with_clause" {
			return c
		}
	}
	return nil
}

// WithItems returns the context manager expressions of a with statement,
// in order, without their "as" targets and parentheses.
func WithItems(s *Node) []*Node {
	var out []*Node
	for _, item := range NamedChildren(WithClause(s)) {
		if item.Kind() != "with_item" {
			continue
		}
		v := item.ChildByFieldName("value")
		if v != nil && v.Kind() == "as_pattern" {
			v = v.NamedChild(0)
		}
		if v = Unparen(v); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// WithStatementOf returns the with statement whose context manager
// expression e is (WithItems), or nil.
func WithStatementOf(e *Node) *Node {
	n := e
	for p := n.Parent(); p != nil; n, p = p, p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "as_pattern", "with_item", "with_clause":
			continue
		case "with_statement":
			if c := p.ChildByFieldName("body"); c != nil && c.Equals(n) {
				return nil
			}
			return p
		}
		return nil
	}
	return nil
}

// ForStatementOf returns the for statement whose iterable (the expression
// after "in") e is, or nil.
func ForStatementOf(e *Node) *Node {
	n := e
	for p := n.Parent(); p != nil; n, p = p, p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression":
			continue
		case "for_statement":
			if r := p.ChildByFieldName("right"); r != nil && r.Equals(n) {
				return p
			}
		}
		return nil
	}
	return nil
}

// Yields reports whether code under n, not in nested functions, yields: a
// function body that does is a generator's.
func Yields(n *Node) bool {
	found := false
	WalkCode(n, func(c *Node) bool {
		if c.Kind() == "yield" {
			found = true
		}
		return !found
	})
	return found
}

// ReturnValue is the expression a return statement returns, without its
// parentheses: nil for a bare return (a comment after it is no value).
func ReturnValue(r *Node) *Node {
	for _, c := range NamedChildren(r) {
		if c.Kind() != "comment" {
			return Unparen(c)
		}
	}
	return nil
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
