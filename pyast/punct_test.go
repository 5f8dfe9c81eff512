package pyast

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestDropPunctuation checks the compacted tree against the full one: the
// same nodes minus the dropped leaves, in the same order, with the same
// kinds, ranges, fields and flags, and every parent the same node.
func TestDropPunctuation(t *testing.T) {
	srcs := []string{
		"",
		"x = 1\n",
		"def f(a, b: int = 2, *args, c=3, **kw) -> dict:\n    return {'a': [a[1:2], (b,)], **kw}\n",
		"class C(B, metaclass=M):\n    @dec(x=1)\n    async def m(self):\n        async with a as (b, c):\n            await d.e.f(g[h])\n",
		"import a.b.c as d\nfrom ..x import (y, z)\nprint(f'{a!r:>{w}}', lambda q: q[::2])\n",
		"def broken(:\n    x = (1, \n",
		"if (a := b) == {1: 2}:\n    pass\nelse:\n    [i for i in range(3) if i]\n",
	}
	files, _ := filepath.Glob("../testdata/rules/*/*/*.py")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	dropped := 0
	for i, src := range srcs {
		full, _, err := parseTree([]byte(src), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		want := describeKept(full, true)
		// A copy: dropPunctuation compacts in place.
		cp := make([]Node, len(full))
		copy(cp, full)
		got := describeKept(dropPunctuation(cp), false)
		if len(got) != len(want) {
			t.Fatalf("source %d: %d nodes kept, want %d", i, len(got), len(want))
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("source %d node %d: got %s, want %s", i, j, got[j], want[j])
			}
		}
		dropped += len(full) - len(want)
	}
	if dropped == 0 {
		t.Error("no node dropped")
	}
}

// describeKept lists the nodes of t in preorder with their parent's position
// in the list; with skip, the droppable leaves are left out (as
// dropPunctuation should).
func describeKept(t []Node, skip bool) []string {
	pos := map[*Node]int{}
	var out []string
	for i := range t {
		n := &t[i]
		if skip && n.size == 1 && n.field == 0 && n.flags == 0 && droppedPunctuation.has(n.symbol) {
			continue
		}
		parent := -1
		if p := n.Parent(); p != nil {
			parent = pos[p]
		}
		pos[n] = len(out)
		last := -1
		if n.size > 1 {
			// the last descendant kept, through the tree's own links
			var d *Node
			Walk(n, func(c *Node) bool {
				if !(skip && c.size == 1 && c.field == 0 && c.flags == 0 && droppedPunctuation.has(c.symbol)) {
					d = c
				}
				return true
			})
			if d != n {
				last = int(d.start)<<1 | int(d.symbol)&1
			}
		}
		out = append(out, fmt.Sprintf("%s[%d,%d) field %d flags %d parent %d last %d children %d", n.Kind(), n.start, n.end, n.field, n.flags, parent, last, countKept(n, skip)))
	}
	return out
}

func countKept(n *Node, skip bool) int {
	k := 0
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if !(skip && c.size == 1 && c.field == 0 && c.flags == 0 && droppedPunctuation.has(c.symbol)) {
			k++
		}
	}
	return k
}

// TestFieldID checks the switch of field names against the grammar's own
// table, both ways.
func TestFieldID(t *testing.T) {
	for name, want := range fieldIDs {
		if got, ok := fieldID(name); !ok || got != want {
			t.Errorf("fieldID(%q) = %d, %v; want %d", name, got, ok, want)
		}
		if fieldIndex(name) < 0 {
			t.Errorf("field %q is missing from fieldNames", name)
		}
	}
	for _, name := range fieldNames {
		if _, ok := fieldIDs[name]; !ok {
			t.Errorf("fieldNames has %q, which the grammar does not", name)
		}
	}
	if _, ok := fieldID("no_such_field"); ok {
		t.Error("fieldID found a field the grammar does not have")
	}
}
