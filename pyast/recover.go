package pyast

// Recovery from the gaps of tree-sitter-python's grammar and scanner: valid
// Python it refuses, for which it would make an ERROR node and mcplint an
// MCP000. Three are known (the conformance test, conformance_test.go, found
// the last two in the standard library):
//
//  1. A starred operand in a tuple without brackets (below).
//  2. A line inside brackets indented less than the block around it, after
//     a "." or a binary operator: `(bar.\n        baz)` in a method. Inside
//     brackets a line break is only a blank to CPython's tokenizer, but
//     tree-sitter's scanner emits a dedent there. The copy it re-parses has
//     each such line break (not one that ends a comment) as a space:
//     CPython's tokens, tree-sitter's tree of them.
//  3. async and await as attribute names (`asyncio.async(f)`), which
//     Python 3.6 compiles: the copy spells them Async and Await (the tree's
//     text comes from the file, so the identifier still reads "async").
//
// A starred expression whose operand starts with a bracket or a string, in
// a tuple without parentheses: `b = 1, *[a]`, `yield None, h, *[f(x) for x
// in y]`, `return *(a), b`, `for x in 1, *{a}:`. tree-sitter-python v0.25.0
// accepts `*name`, `*a.b`, `*f()` there and the same starred operands
// inside brackets, `(1, *[a])`, but not these. CPython's grammar
// (star_expressions) takes them all since 3.5 (PEP 448).
//
// The recovery: when tree-sitter's tree has errors, one copy of the source
// gets the changes of 2 and 3 and each such "*" (outside brackets, after
// "=", ",", an augmented assignment, "return", "yield" or "in", before "(",
// "[", "{" or a string) blanked, and tree-sitter parses the copy (the same
// length: every offset stays valid). When the copy parses without an error
// and each blanked "*"
// is right before an element of an expression_list, the operand gets back
// its star: a list_splat node from the "*" to the operand's end, with the
// "*" leaf and the operand as children, the tree tree-sitter makes of the
// same tuple in parentheses. Otherwise the first tree stands, errors and
// all: `b = *[a]` (no tuple) stays a syntax error, as in CPython. So does
// a file with a real error besides a gap: its first error is then
// tree-sitter's, which may be at the gap, before the line CPython names.

import "bytes"

// recoverGrammarGaps returns the tree of src with the gaps above filled,
// or t as it is (t is tree-sitter's tree, before dropPunctuation), and
// the types of `except A, B:` grouped (groupExceptTypes).
func recoverGrammarGaps(src []byte, t []rawNode, steps int64, lim Limits) ([]rawNode, int64) {
	t, steps = recoverErrors(src, t, steps, lim)
	return groupExceptTypes(t), steps
}

// groupExceptTypes gives the types of an except clause without
// parentheses (PEP 758, Python 3.14: `except A, B:` is `except (A, B):`)
// one parent: tree-sitter-python reads them as Python 2's `except A, e:`,
// with a value field each, and the analyses read one value, a class or a
// tuple of them. They get the tuple node tree-sitter makes of `(A, B)`
// without its parentheses. `except A, B as e:` stays as it is: a syntax
// error (grammarErrors) even in 3.14.
func groupExceptTypes(t []rawNode) []rawNode {
	var ins []insertion
	for i := range t {
		if t[i].symbol != fs.exceptClause {
			continue
		}
		first, last, n, as := -1, -1, 0, false
		end := i + int(t[i].size)
		for c := i + 1; c < end; c += int(t[c].size) {
			if t[c].field == fs.fValue {
				if first < 0 {
					first = c
				}
				last, n = c, n+1
				as = as || t[c].symbol == fs.asPattern
			}
		}
		if n >= 2 && !as {
			ins = append(ins, insertion{first: first, end: last + int(t[last].size),
				node: rawNode{start: t[first].start, end: t[last].end, symbol: fs.tuple, flags: flagNamed}})
		}
	}
	if len(ins) == 0 {
		return t
	}
	return insertParents(t, ins)
}

// recoverErrors is recoverGrammarGaps for the three gaps of the file
// comment.
//
// The re-parse costs a second parse of a file with errors; it is not tried
// when the first took more than half the file's step budget, so that a
// hostile file costs at most one and a half budgets (a real file's parse
// takes a small part of it: see DefaultLimits).
func recoverErrors(src []byte, t []rawNode, steps int64, lim Limits) ([]rawNode, int64) {
	if len(t) == 0 || t[0].flags&flagHasError == 0 || lim.Steps > 0 && steps > lim.Budget(len(src))/2 {
		return t, steps
	}
	stars, blanks, names := gapCandidates(src)
	if len(stars)+len(blanks)+len(names) == 0 {
		return t, steps
	}
	body := append([]byte(nil), src...)
	for _, s := range stars {
		body[s] = ' '
	}
	for _, b := range blanks {
		body[b] = ' '
	}
	for _, n := range names {
		body[n] -= 'a' - 'A' // async -> Async, await -> Await
	}
	t2, steps2, err := parseTreeSitter(body, lim)
	if err != nil || t2[0].flags&flagHasError != 0 {
		return t, steps
	}
	if len(stars) == 0 {
		return t2, max(steps, steps2)
	}
	out, ok := wrapStarred(body, t2, stars)
	if !ok {
		return t, steps
	}
	return out, max(steps, steps2)
}

// gapCandidates returns the offsets of what the copy changes (see the
// file comment): the "*" that may start a starred operand tree-sitter
// refuses (outside brackets, after a token that ends where an expression
// list may start, before a bracket or a string), the line break bytes
// inside brackets (not ending a comment), and the first letter of async
// and await after a ".". It tokenizes only as far as that needs: strings,
// comments and brackets.
func gapCandidates(src []byte) (stars, blanks, names []int) {
	depth := 0
	comment := false // the current line has a comment
	prev := ""       // the previous token's text (operators and names), "" at a line start
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			comment = true
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
			continue
		case c == '\n' || c == '\r':
			if depth == 0 {
				prev = ""
			} else if !comment && !continued(src, i) {
				blanks = append(blanks, i)
			}
			comment = false
			i++
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\\':
			i++
			continue
		}
		if q := stringStart(src, i); q >= 0 {
			i = skipString(src, i, q)
			prev = "str"
			continue
		}
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
			prev = string(c)
			i++
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
			prev = string(c)
			i++
		case isNameByte(c):
			j := i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			if prev == "." && (string(src[i:j]) == "async" || string(src[i:j]) == "await") {
				names = append(names, i)
			}
			prev = string(src[i:j])
			i = j
		case c == '*' && depth == 0 && (i+1 >= len(src) || src[i+1] != '*' && src[i+1] != '='):
			if starContext(prev) {
				j := i + 1
				for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
					j++
				}
				if j < len(src) && (src[j] == '(' || src[j] == '[' || src[j] == '{' || stringStart(src, j) >= 0) {
					stars = append(stars, i)
				}
			}
			prev = "*"
			i++
		default:
			// An operator: read it whole (augmented assignments end in "=").
			j := i + 1
			for j < len(src) && bytes.IndexByte([]byte("=<>!*/%&|^@+-.:~"), src[j]) >= 0 && j-i < 3 {
				j++
			}
			prev = string(src[i:j])
			i = j
		}
	}
	return stars, blanks, names
}

// continued reports whether the line break at i ends a line continuation
// ("\\" then the break): a blank after the backslash would be an error.
func continued(src []byte, i int) bool {
	if i > 0 && src[i] == '\n' && src[i-1] == '\r' {
		i--
	}
	return i > 0 && src[i-1] == '\\'
}

// starContext reports whether a starred expression may follow the token
// prev in a tuple without brackets.
func starContext(prev string) bool {
	switch prev {
	case "=", ",", "return", "yield", "in", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", ">>=", "<<=", "**=":
		return true
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// stringStart returns the offset of the quote of a string literal starting
// at i (after its prefix letters), or -1.
func stringStart(src []byte, i int) int {
	if i > 0 && isNameByte(src[i-1]) {
		return -1
	}
	j := i
	for j < len(src) && j-i < 3 && bytes.IndexByte([]byte("rRbBuUfFtT"), src[j]) >= 0 {
		j++
	}
	if j < len(src) && (src[j] == '"' || src[j] == '\'') {
		return j
	}
	return -1
}

// skipString returns the offset past the string literal at i whose quote
// is at q. An f-string's replacement fields are skipped as text: a
// candidate star is only one, and a wrong one fails the re-parse check.
func skipString(src []byte, i, q int) int {
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	j := q + 1
	if triple {
		j = q + 3
	}
	for j < len(src) {
		switch c := src[j]; {
		case c == '\\':
			j += 2
		case c == quote && (!triple || j+2 < len(src) && src[j+1] == quote && src[j+2] == quote):
			if triple {
				return j + 3
			}
			return j + 1
		case (c == '\n' || c == '\r') && !triple:
			return j
		default:
			j++
		}
	}
	return len(src)
}

// wrapStarred gives each operand after a blanked star back its list_splat
// node (see the file comment); ok is false when a star is not right before
// an element of an expression_list.
func wrapStarred(src []byte, t []rawNode, stars []int) ([]rawNode, bool) {
	// The element of an expression_list that starts after each star.
	wrap := map[int]uint32{} // node index -> the star's offset
	parent := func(i int) int { return i - int(t[i].up) }
	for _, s := range stars {
		at := s + 1
		i := 1
		for i < len(t) && t[i].start < uint32(at) {
			i++
		}
		// The outermost node starting there that is an element of an
		// expression_list (the list itself may start there too).
		for i+1 < len(t) && t[i+1].start == t[i].start && t[parent(i)].symbol != fs.exprList {
			i++
		}
		if i >= len(t) || t[i].flags&flagNamed == 0 || t[parent(i)].symbol != fs.exprList || len(bytes.Trim(src[at:t[i].start], " \t")) > 0 {
			return nil, false
		}
		switch t[i].symbol {
		case fs.cond, fs.boolOp, fs.notOp, fs.cmpOp, fs.lambda, fs.named:
			// CPython's operand of "*" is an "|" expression at most:
			// `*[a] if x else y` is a syntax error there.
			return nil, false
		}
		wrap[i] = uint32(s)
	}
	var ins []insertion
	for i := range t {
		if st, ok := wrap[i]; ok {
			star := rawNode{start: st, end: st + 1, symbol: fs.anon[oStar]}
			ins = append(ins, insertion{first: i, end: i + int(t[i].size),
				node: rawNode{start: st, end: t[i].end, symbol: fs.listSplat, flags: flagNamed}, leaf: &star})
		}
	}
	return insertParents(t, ins), true
}

// insertion is a new node insertParents adds: the parent of the siblings
// t[first:end] (whole subtrees), with leaf, if any, as its first child. It
// takes the field of t[first], which the siblings lose.
type insertion struct {
	first, end int
	node       rawNode
	leaf       *rawNode
}

// insertParents returns t with the new nodes, ordered by first, whose
// ranges nest or do not overlap.
func insertParents(t []rawNode, ins []insertion) []rawNode {
	type item struct {
		n     rawNode
		depth int
	}
	depth := make([]int, len(t))
	for i := 1; i < len(t); i++ {
		depth[i] = depth[i-int(t[i].up)] + 1
	}
	items := make([]item, 0, len(t)+2*len(ins))
	type opened struct{ end, parent int } // old indexes
	var open []opened
	parent := func(i int) int { return i - int(t[i].up) }
	k := 0
	for i := range t {
		for len(open) > 0 && i >= open[len(open)-1].end {
			open = open[:len(open)-1]
		}
		n := t[i]
		for ; k < len(ins) && ins[k].first == i; k++ {
			in := ins[k]
			in.node.field = n.field
			items = append(items, item{in.node, depth[i] + len(open)})
			if in.leaf != nil {
				items = append(items, item{*in.leaf, depth[i] + len(open) + 1})
			}
			open = append(open, opened{in.end, parent(i)})
		}
		if len(open) > 0 && i > 0 && parent(i) == open[len(open)-1].parent {
			n.field = 0 // a sibling moved under the new parent
		}
		items = append(items, item{n, depth[i] + len(open)})
	}
	out := make([]rawNode, len(items))
	var stack []int // new indexes of the open ancestors
	for k, it := range items {
		for len(stack) > it.depth {
			top := stack[len(stack)-1]
			out[top].size = uint32(k - top)
			stack = stack[:len(stack)-1]
		}
		n := it.n
		n.up = 0
		if len(stack) > 0 {
			n.up = uint32(k - stack[len(stack)-1])
		}
		out[k] = n
		stack = append(stack, k)
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		out[top].size = uint32(len(items) - top)
		stack = stack[:len(stack)-1]
	}
	return out
}
