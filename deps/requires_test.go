package deps

import (
	"strings"
	"testing"
)

func need(t *testing.T, name, spec string, changed bool) Need {
	t.Helper()
	_, set, err := ParseSpecifier(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Need{Name: name, Set: set, What: name + spec, Changed: changed}
}

// The releases' own requirements (SPEC section 2) decide whether
// requirements installed together can be satisfied.
func TestConflict(t *testing.T) {
	cases := []struct {
		needs []Need
		want  string // a word of the conflict, "" for none
	}{
		{[]Need{need(t, "fastmcp", ">=4,<5", true), need(t, "mcp", "==1.28.1", false)}, "requires mcp"},
		{[]Need{need(t, "fastmcp", ">=4,<5", true), need(t, "mcp", ">=2,<3", false)}, ""},
		{[]Need{need(t, "fastmcp", ">=3,<4", false), need(t, "mcp", ">=1.27.0,<2", true)}, ""},
		{[]Need{need(t, "fastmcp", ">=3,<4", false), need(t, "mcp", ">=2,<3", true)}, "requires mcp"},
		{[]Need{need(t, "fastmcp", "==3.4.8", false), need(t, "mcp", "<1.24", true)}, "requires mcp"}, // 3.x needs >=1.24.0
		// 2.10.0-2.11.2 declare no upper bound on mcp.
		{[]Need{need(t, "fastmcp", "==2.11.2", false), need(t, "mcp", ">=2", true)}, ""},
		{[]Need{need(t, "fastmcp", "==2.12.0", false), need(t, "mcp", ">=2", true)}, "requires mcp"},
		{[]Need{need(t, "fastmcp", ">=4,<5", true), need(t, "fastmcp-slim", ">=3,<4", false)}, "requires fastmcp-slim"},
		// fastmcp 1.x is not in the table: nothing is claimed.
		{[]Need{need(t, "fastmcp", "<2", false), need(t, "mcp", ">=2", true)}, ""},
		// The guard needs mcp 1.x; a manifest on mcp 2 excludes it.
		{[]Need{need(t, "mcp", ">=2,<3", false), need(t, "mcp", ">=1.3.0rc1,<2", true)}, "no common version"},
		// A conflict the manifest had before does not count against a change.
		{[]Need{need(t, "mcp", "==1.20", false), need(t, "mcp", "==1.21", false), need(t, "httpx", ">=1", true)}, ""},
		{[]Need{need(t, "mcp", "==1.20", false), need(t, "mcp", "==1.21", false)}, "no common version"},
	}
	for i, c := range cases {
		got := Conflict(c.needs)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("case %d: Conflict = %q, want %q", i, got, c.want)
		}
	}
}

// Conflict gives the same answer over a list with repeated needs as over
// the list with each need once or twice, in order: a need that conflicts
// with itself (an empty set) still does.
func TestConflictRepeatedNeeds(t *testing.T) {
	lists := [][]Need{
		{need(t, "fastmcp", ">=4,<5", true), need(t, "mcp", "==1.28.1", false)},
		{need(t, "mcp", "==1.20", false), need(t, "mcp", "==1.21", false)},
		{need(t, "mcp", ">2,<1", false)},
		{need(t, "mcp", ">=2,<3", false), need(t, "mcp", ">=1.3.0rc1,<2", true)},
	}
	for i, l := range lists {
		var repeated []Need
		for range 1000 {
			repeated = append(repeated, l...)
		}
		want := Conflict(append(append([]Need{}, l...), l...))
		if got := Conflict(repeated); got != want {
			t.Errorf("list %d repeated: Conflict = %q, want %q", i, got, want)
		}
	}
	if got := Conflict([]Need{need(t, "mcp", ">2,<1", false), need(t, "mcp", ">2,<1", false)}); !strings.Contains(got, "no common version") {
		t.Errorf("an empty set twice: Conflict = %q, want a conflict", got)
	}
}
