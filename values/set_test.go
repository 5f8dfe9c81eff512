package values

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// TestSetBounds: a union keeps 64 values, and up to 256 when the rest are
// project code (a registry's handlers, an instance); past its bound it ends with one
// unknown, and a value already in it is not added again.
func TestSetBounds(t *testing.T) {
	var strs Set
	for i := 0; i < 100; i++ {
		strs = strs.add(&Value{Kind: Str, Text: fmt.Sprint(i)})
	}
	if len(strs) != maxSet+1 || strs[maxSet].Kind != Unknown || strs[maxSet].Why != overflow {
		t.Errorf("100 strings: %d values, last %s", len(strs), strs[len(strs)-1].Key())
	}
	var src strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&src, "def f%d(): pass\n", i)
	}
	mod, err := pyast.Parse("m.py", "m", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	var funcs Set
	for _, f := range mod.Funcs {
		funcs = funcs.add(&Value{Kind: Function, Mod: mod, Func: f})
	}
	if len(funcs) != maxFuncs+1 || funcs[maxFuncs].Why != overflow {
		t.Errorf("300 functions: %d values", len(funcs))
	}
	// A string past 64 in a union of functions overflows; the unknown is
	// added once.
	mixed := funcs[:100:100]
	mixed = mixed.add(&Value{Kind: Str, Text: "x"}).add(&Value{Kind: Str, Text: "y"})
	if len(mixed) != 101 || mixed[100].Why != overflow {
		t.Errorf("functions then strings: %d values", len(mixed))
	}
	if again := mixed.add(mixed[3]); len(again) != len(mixed) {
		t.Errorf("a value already in the union was added")
	}
	// An instance of a project class is not crowded out by 64 library
	// results before it (gradio's generator and its SyncToAsyncIterator).
	cls, err := pyast.Parse("c.py", "c", []byte("class It:\n    pass\n"))
	if err != nil || len(cls.Classes) != 1 {
		t.Fatal(err)
	}
	var results Set
	for i := 0; i < 70; i++ {
		results = results.add(&Value{Kind: ExtResult, Name: fmt.Sprint("lib.f", i)})
	}
	results = results.add(&Value{Kind: Instance, Mod: cls, Class: cls.Classes[0]})
	if last := results[len(results)-1]; len(results) != maxSet+2 || last.Kind != Instance {
		t.Errorf("70 library results then an instance: %d values, last %s", len(results), last.Key())
	}
}
