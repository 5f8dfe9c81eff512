package pyast

// WalkCode visits the code of a function body (or any node) that runs when it
// runs: it does not enter nested functions, lambdas or classes.
func WalkCode(n *Node, visit func(n *Node) bool) {
	root := n
	Walk(n, func(c *Node) bool {
		if c.Id() != root.Id() && IsFunctionBoundary(c) {
			return false
		}
		return visit(c)
	})
}

// Callee returns the function expression of a call node.
func Callee(call *Node) *Node {
	if call == nil || call.Kind() != "call" {
		return nil
	}
	return call.ChildByFieldName("function")
}

// Constructor returns what a call's value is an instance of, when the call
// constructs one: the callee, or for a call of a subscripted generic class
// (FastMCP[None](...), Server[AppContext](...)) the class subscripted. Only
// a name or attribute chain is taken from under the subscript; what it
// names (a class, or a dict of callables) is for the caller to decide.
func Constructor(call *Node) *Node {
	f := Unparen(Callee(call))
	if f != nil && f.Kind() == "subscript" {
		if v := Unparen(f.ChildByFieldName("value")); v != nil && (v.Kind() == "identifier" || v.Kind() == "attribute") {
			return v
		}
	}
	return f
}

// Args returns the positional argument expressions and keyword arguments of a
// call. Splats (*a, **k) are in neither. keywords is nil (a map to read, not
// to write) when the call has none: most calls, and a map each was most of
// what the handler graph allocated.
func (m *Module) Args(call *Node) (positional []*Node, keywords map[string]*Node) {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "argument_list" {
		return nil, nil
	}
	for a := args.firstChild(); a != nil; a = args.nextChild(a) {
		if a.meta&flagNamed == 0 {
			continue
		}
		switch a.Kind() {
		case "keyword_argument":
			if keywords == nil {
				keywords = map[string]*Node{}
			}
			keywords[m.Text(a.ChildByFieldName("name"))] = a.ChildByFieldName("value")
		case "list_splat", "dictionary_splat", "comment":
		default:
			positional = append(positional, a)
		}
	}
	return positional, keywords
}

// KeywordArg returns the keyword_argument node named name in call, or nil.
func KeywordArg(m *Module, call *Node, name string) *Node {
	args := call.ChildByFieldName("arguments")
	for _, a := range NamedChildren(args) {
		if a.Kind() == "keyword_argument" && m.Text(a.ChildByFieldName("name")) == name {
			return a
		}
	}
	return nil
}

// Statement returns the statement that contains n: the nearest ancestor (or n
// itself) whose parent is a block or the module.
func Statement(n *Node) *Node {
	for c := n; c != nil; c = c.Parent() {
		p := c.Parent()
		if p == nil {
			return c
		}
		switch p.Kind() {
		case "block", "module":
			return c
		}
	}
	return nil
}

// IsTrue reports whether n is the literal True.
func IsTrue(n *Node) bool {
	n = Unparen(n)
	return n != nil && n.Kind() == "true"
}

// Returns returns the value expressions of the return statements in fn's own
// code (not in nested functions), in source order.
func Returns(fn *Function) []*Node {
	if fn.Body == nil {
		return nil
	}
	var out []*Node
	WalkCode(fn.Body, func(n *Node) bool {
		if n.Kind() != "return_statement" {
			return true
		}
		if v := ReturnValue(n); v != nil { // return  # why: no value
			out = append(out, v)
		}
		return false
	})
	return out
}

// ReturnAnnotation returns the expression of fn's return annotation, or nil.
func ReturnAnnotation(fn *Function) *Node {
	if rt := fn.Node.ChildByFieldName("return_type"); rt != nil && rt.NamedChildCount() > 0 {
		return rt.NamedChild(0)
	}
	return nil
}
