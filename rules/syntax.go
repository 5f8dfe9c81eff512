package rules

// Python syntax helpers the rules share: the statements of a block, the
// context managers of a with statement, and names resolving to a qualified
// name.

import "github.com/mcplint/mcplint/pyast"

// blockStmts returns the statements of a block, comments left out.
func blockStmts(blk *pyast.Node) []*pyast.Node {
	var out []*pyast.Node
	for _, s := range pyast.NamedChildren(blk) {
		if s.Kind() != "comment" {
			out = append(out, s)
		}
	}
	return out
}

// withItem is one context manager of a with statement: its expression and
// the target `as` binds it to (nil when none).
type withItem struct {
	expr, alias *pyast.Node
}

// withItems returns the context managers of with statement w, in order.
func withItems(w *pyast.Node) []withItem {
	var out []withItem
	for _, c := range pyast.NamedChildren(w) {
		if c.Kind() != "with_clause" {
			continue
		}
		for _, it := range pyast.NamedChildren(c) {
			if it.Kind() != "with_item" {
				continue
			}
			v := it.ChildByFieldName("value")
			var alias *pyast.Node
			if v != nil && v.Kind() == "as_pattern" {
				alias = v.ChildByFieldName("alias")
				v = v.NamedChild(0)
			}
			if v != nil {
				out = append(out, withItem{expr: v, alias: alias})
			}
		}
	}
	return out
}

// nameIs reports whether name expression n can refer to qualified name q.
func nameIs(m *pyast.Module, n *pyast.Node, q string) bool {
	if n == nil {
		return false
	}
	for _, r := range m.Resolve(n) {
		if r == q {
			return true
		}
	}
	return false
}
