package deps

import (
	"strings"
	"testing"
)

// specifierVersions are the versions every row of specifierTable is asked about.
var specifierVersions = strings.Fields(`1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7a1 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0a1 2.0.0 3.0.0b1 3.4.7 4.0.0rc1 4.0.0 1.7+local 1.26.0.0 0!1.0.dev0`)

// specifierTable: for each specifier, the versions of specifierVersions that
// Python's packaging (SpecifierSet.contains, default pre-release handling)
// admits, as generated with the packaging vendored in pip 23.2.1. Two rows
// where mcplint knowingly differs are left out: local labels are ignored by
// comparisons (==1.7+local also admits 1.7), and ">V"/"<V" naming a
// pre-release turn pre-releases on, as PEP 440 reads (packaging 21 does not).
var specifierTable = []struct{ spec, admitted string }{
	{`>=1.20,<2`, "1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 1.26.0.0"},
	{`~=1.26.0`, "1.26.0 1.26.5 1.26.0.0"},
	{`~=1.26`, "1.26.0 1.26.5 1.27.0 1.30.0 1.26.0.0"},
	{`==1.*`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 1.7+local 1.26.0.0"},
	{`!=1.5.*`, "1.0 1.7 1.7.post1 1.7.post3 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0 3.4.7 4.0.0 1.7+local 1.26.0.0"},
	{`>1.7`, "1.7.1 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0 3.4.7 4.0.0 1.26.0.0"},
	{`<1.7`, "1.0 1.5.3 1.6.9"},
	{`>=1.0a1`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7a1 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0a1 2.0.0 3.0.0b1 3.4.7 4.0.0rc1 4.0.0 1.7+local 1.26.0.0"},
	{`<2.0.0`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 1.7+local 1.26.0.0"},
	{`<=2.0.0rc1`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7a1 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0a1 1.7+local 1.26.0.0 0!1.0.dev0"},
	{`==1.25.0`, "1.25.0"},
	{`>1.7.post2`, "1.7.post3 1.7.1 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0 3.4.7 4.0.0 1.26.0.0"},
	{`<1.7.post2`, "1.0 1.5.3 1.7 1.7.post1 1.6.9 1.7+local"},
	{`>=3.0.0b1,<4.0.0`, "3.0.0b1 3.4.7"},
	{`!=1.25.0`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7.1 1.6.9 1.20.0 1.26.0 1.26.5 1.27.0 1.30.0 2.0.0 3.4.7 4.0.0 1.7+local 1.26.0.0"},
	{`==1.26`, "1.26.0 1.26.0.0"},
	{`<2`, "1.0 1.5.3 1.7 1.7.post1 1.7.post3 1.7.1 1.6.9 1.20.0 1.25.0 1.26.0 1.26.5 1.27.0 1.30.0 1.7+local 1.26.0.0"},
	{`===1.0`, "1.0"},
}

func TestSpecifierTable(t *testing.T) {
	for _, row := range specifierTable {
		_, set, err := ParseSpecifier(row.spec)
		if err != nil {
			t.Errorf("%s: %v", row.spec, err)
			continue
		}
		want := map[string]bool{}
		for _, v := range strings.Fields(row.admitted) {
			want[v] = true
		}
		for _, s := range specifierVersions {
			if got := set.Contains(MustVersion(s)); got != want[s] {
				t.Errorf("%s contains %s = %v, packaging says %v (set %s)", row.spec, s, got, want[s], set)
			}
		}
	}
}
