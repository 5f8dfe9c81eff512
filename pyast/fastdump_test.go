package pyast

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// dumpNodes prints a node array as an indented tree (kind, field, range,
// symbol id, flags, token text): the differential test's report of a
// mismatch, and TestDumpTS's output.
func dumpNodes(src []byte, t []rawNode) string {
	var b strings.Builder
	fieldName := map[uint8]string{}
	for k, v := range fieldIDs {
		fieldName[v] = k
	}
	depth := make([]int, len(t))
	for i := range t {
		if t[i].up != 0 && i-int(t[i].up) >= 0 {
			depth[i] = depth[i-int(t[i].up)] + 1
		}
		n := &t[i]
		f := ""
		if n.field != 0 {
			f = fieldName[n.field] + ": "
		}
		txt := ""
		if n.size == 1 {
			txt = fmt.Sprintf(" %q", src[n.start:n.end])
		}
		fmt.Fprintf(&b, "%s%s%s%s [%d,%d] sym=%d fl=%d%s\n", strings.Repeat("  ", depth[i]), f, map[bool]string{true: "", false: "'"}[n.flags&flagNamed != 0], kindName(n.symbol), n.start, n.end, n.symbol, n.flags, txt)
	}
	return b.String()
}

// TestDumpTS prints tree-sitter's tree of the file FASTDUMP names (to learn
// a construct's shape before teaching it to the fast path):
//
//	FASTDUMP=x.py go test ./pyast -run TestDumpTS -v
func TestDumpTS(t *testing.T) {
	p := os.Getenv("FASTDUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	nodes, _, err := parseTreeSitter(src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(dumpNodes(src, nodes))
}
