package handlers

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// TestStarImportCycles: star imports that form cycles (every module
// star-imports every other, and the package that star-imports them all)
// are followed once per name and module during a lookup. Before, each
// follow only used up one level of lookupDepth's bound, so a name found in
// no module took time exponential in that bound (20 modules of 30 names
// each ran for more than 12 minutes). The follows are counted, not timed:
// the budget is linear in what the lookups can visit and the old code
// exceeds it many times over.
func TestStarImportCycles(t *testing.T) {
	const n, names = 20, 30
	files := map[string]string{}
	var init strings.Builder
	for i := range n {
		fmt.Fprintf(&init, "from .m%d import *\n", i)
		var src strings.Builder
		src.WriteString("from . import *\n")
		for j := range n {
			if j != i {
				fmt.Fprintf(&src, "from .m%d import *\n", j)
			}
		}
		if i == n-1 {
			src.WriteString("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n")
		}
		fmt.Fprintf(&src, "@mcp.tool()\nasync def t%d() -> int:\n", i)
		for k := range names {
			fmt.Fprintf(&src, "    u%d_%d()\n", i, k)
		}
		src.WriteString("    return 1\n")
		files[fmt.Sprintf("pkg/m%d.py", i)] = src.String()
	}
	files["pkg/__init__.py"] = init.String()

	// Each of the n*names unresolved names follows each star import of the
	// n+1 modules once (n+1 at most in each): twice that is the budget.
	budget := int64(2 * n * names * (n + 1) * (n + 1))
	var follows atomic.Int64
	countStarFollow = func() {
		if follows.Add(1) > budget {
			panic(fmt.Sprintf("more than %d star imports followed", budget))
		}
	}
	defer func() { countStarFollow = nil }()

	ix := build(t, files, Config{Jobs: 1})
	got := handlerSet(ix)
	if len(got) != n {
		t.Fatalf("got %d handlers, want %d (every module's tool, on the server of m%d): %v", len(got), n, n-1, got)
	}
	for i := range n {
		if want := fmt.Sprintf("pkg.m%d.t%d:tool:", i, i); !strings.HasPrefix(got[indexOf(got, want)], want) {
			t.Errorf("handler %s not found in %v", want, got)
		}
	}
	t.Logf("%d star imports followed (budget %d)", follows.Load(), budget)
}

// indexOf returns the index of the first element of s starting with prefix, or 0.
func indexOf(s []string, prefix string) int {
	for i, x := range s {
		if strings.HasPrefix(x, prefix) {
			return i
		}
	}
	return 0
}

// TestStarImportAllExtended: "from m import *" binds what m's __all__ is
// made of, literals added by __all__ += [...], .extend([...]) and
// .append("x") included; a name outside a literal __all__ stays hidden,
// and an __all__ that is not all literals hides nothing.
func TestStarImportAllExtended(t *testing.T) {
	const tools = "from .runtime import *\n\n@mcp.tool()\nasync def slow() -> int:\n    return 1\n"
	for _, tc := range []struct {
		name, all string
		found     bool
	}{
		{"augmented", "__all__ = ['helper']\n__all__ += ['mcp']\n", true},
		{"extend", "__all__ = ['helper']\n__all__.extend(('other', 'mcp'))\n", true},
		{"append", "__all__ = ['helper']\n__all__.append('mcp')\n", true},
		{"annotated", "__all__: list[str] = []\n__all__.append('mcp')\n", true},
		{"computed", "__all__ = [n for n in dir() if n != 'helper']\n", true},
		{"extended computed", "__all__ = ['helper']\n__all__ += [n for n in dir()]\n", true},
		{"literal", "__all__ = ['helper']\n", false},
		{"extended literals", "__all__ = ['helper']\n__all__ += ['other']\n__all__.append('more')\n", false},
		{"other module's", "import other\n__all__ = ['helper']\n__all__ += other.__all__ if False else []\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := build(t, map[string]string{
				"pkg/__init__.py": "",
				"pkg/runtime.py":  "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n" + tc.all + "def helper():\n    pass\n",
				"pkg/tools.py":    tools,
			}, Config{})
			got := handlerSet(ix)
			if found := len(got) == 1 && strings.HasPrefix(got[0], "pkg.tools.slow:tool:"); found != tc.found || len(got) > 1 {
				t.Errorf("handlers %v, want pkg.tools.slow found: %v", got, tc.found)
			}
		})
	}
}
