package values

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestIndexBuildKeepsWhatItCanReuse checks that building the mutation
// index asks a shared answer once, not once for each mutation: every
// mutation's object below is first(), whose value reads the additions of
// ALL (the index being built). Discarding every answer of a question once
// one had read the partial index asked first() and what it reads again
// for each of the n mutations; keeping them until the index is built asks
// each once.
func TestIndexBuildKeepsWhatItCanReuse(t *testing.T) {
	const n = 200
	var src strings.Builder
	src.WriteString("ALL = []\nALL.append([])\ndef first():\n    for x in ALL:\n        return x\ndef f(): pass\n")
	for i := range n {
		fmt.Fprintf(&src, "first().append(f)  # %d\n", i)
	}
	src.WriteString("first()  #? list@2\n")
	mods := parseFixture(t, txtar.Parse([]byte("-- a.py --\n"+src.String())))
	e := New(mods, Config{})
	qs := queries(t, mods)
	if len(qs) != 1 {
		t.Fatalf("queries: %d, want 1", len(qs))
	}
	if got := e.Eval(qs[0].m, qs[0].n).String(); got != qs[0].want {
		t.Errorf("first(): got %s, want %s", got, qs[0].want)
	}
	if e.computed > 2*n {
		t.Errorf("%d answers computed for %d mutations, want at most %d", e.computed, n, 2*n)
	}
	// Once built, the answers read from the partial index are asked again.
	if len(e.partials) != 0 {
		t.Errorf("%d answers of the index build kept after it", len(e.partials))
	}
}
