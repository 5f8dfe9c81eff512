package pyast

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dropSources are the sources TestDropPunctuation and TestPackTree parse:
// snippets and every rule fixture.
func dropSources(t *testing.T) []string {
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
	return srcs
}

// TestDropPunctuation checks the compacted tree, as the Module keeps it
// (packed), against the full one: the same nodes minus the dropped leaves,
// in the same order, with the same kinds, ranges, fields and flags, and
// every parent the same node, read through the Node accessors.
func TestDropPunctuation(t *testing.T) {
	dropped := 0
	for i, src := range dropSources(t) {
		full, _, err := parseTreeSitter([]byte(src), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		want := describeFull(full)
		// A copy: dropPunctuation compacts in place.
		cp := append([]rawNode(nil), full...)
		tree := packTree(dropPunctuation(cp))
		got := describePacked(tree)
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

func droppable(n *rawNode) bool {
	return n.size == 1 && n.field == 0 && n.flags == 0 && droppedPunctuation.has(n.symbol)
}

// describeFull lists the nodes of a full tree that dropPunctuation keeps,
// in preorder, with their parent's position in the list, their last kept
// descendant and their kept children, from the raw array's own values.
func describeFull(t []rawNode) []string {
	pos := map[int]int{}
	var out []string
	for i := range t {
		n := &t[i]
		if droppable(n) {
			continue
		}
		parent := -1
		if n.up != 0 {
			parent = pos[i-int(n.up)]
		}
		pos[i] = len(out)
		last, children := -1, 0
		for d := i + 1; d < i+int(n.size); d++ {
			if !droppable(&t[d]) {
				last = int(t[d].start)<<9 | int(t[d].symbol)
			}
		}
		for c := i + 1; c < i+int(n.size); c += int(t[c].size) {
			if !droppable(&t[c]) {
				children++
			}
		}
		out = append(out, fmt.Sprintf("%s[%d,%d) field %d flags %d parent %d last %d children %d", kindName(n.symbol), n.start, n.end, n.field, n.flags, parent, last, children))
	}
	return out
}

// describePacked is describeFull of a Module's tree, through the accessors.
func describePacked(t []Node) []string {
	pos := map[*Node]int{}
	var out []string
	for i := range t {
		n := &t[i]
		parent := -1
		if p := n.Parent(); p != nil {
			parent = pos[p]
		}
		pos[n] = len(out)
		last := -1
		var d *Node
		Walk(n, func(c *Node) bool {
			d = c
			return true
		})
		if d != n {
			last = int(d.start)<<9 | int(d.symbol)
		}
		out = append(out, fmt.Sprintf("%s[%d,%d) field %d flags %d parent %d last %d children %d", n.Kind(), n.StartByte(), n.EndByte(), n.fieldOf(), n.flagBits(), parent, last, n.ChildCount()))
	}
	return out
}

// TestPackTree checks every value of every packed node against the array
// it was packed from, on the fixtures and on generated code with wide
// nodes of every kind: long nodes, large subtrees, far parents.
func TestPackTree(t *testing.T) {
	var big strings.Builder
	big.WriteString("class Big:\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&big, "    def m%d(self, a, b=%d):\n        return self.f(a, [b, %d], {'k': a.b.c})\n", i, i, i)
	}
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&big, "x%d = y.z(%d)\n", i, i)
	}
	big.WriteString("s = '" + strings.Repeat("a", 20000) + "'\n")
	wide := 0
	for _, src := range append(dropSources(t), big.String()) {
		// as Parse reads it: the fast path's tree, or tree-sitter's after
		// the drop
		raw, _, err := parseTree([]byte(src), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		tree := packTree(raw)
		if len(tree) != len(raw) {
			t.Fatalf("packed %d nodes of %d", len(tree), len(raw))
		}
		var kinds [3]int
		for i := range raw {
			r, n := &raw[i], &tree[i]
			if r.isWide() {
				wide++
				if r.end-r.start >= 1<<lenBits {
					kinds[0]++
				}
				if r.size >= 1<<sizeBits {
					kinds[1]++
				}
				if r.up >= 1<<upBits {
					kinds[2]++
				}
				if n.meta&mWide == 0 {
					t.Fatalf("node %d: not wide", i)
				}
			}
			if n.start != r.start || n.endOf() != r.end || n.sizeOf() != r.size || n.upOf() != r.up || n.symbol != r.symbol || n.fieldOf() != r.field || n.flagBits() != r.flags {
				t.Fatalf("node %d: packed start %d end %d size %d up %d symbol %d field %d flags %d; want %+v",
					i, n.start, n.endOf(), n.sizeOf(), n.upOf(), n.symbol, n.fieldOf(), n.flagBits(), *r)
			}
		}
		if src == big.String() && (kinds[0] == 0 || kinds[1] == 0 || kinds[2] == 0) {
			t.Errorf("the generated module has wide nodes of each kind: long %d, large %d, far parent %d", kinds[0], kinds[1], kinds[2])
		}
	}
	if wide == 0 {
		t.Error("no wide node")
	}
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
