package engine

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

func TestEntryPointName(t *testing.T) {
	for in, want := range map[string]string{
		"pkg.cli:main":            "pkg.cli.main",
		" pkg.cli : App.run [x] ": "pkg.cli.App.run",
		"pkg.cli":                 "",
		":main":                   "",
	} {
		if got := entryPointName(in); got != want {
			t.Errorf("entryPointName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestImportLines(t *testing.T) {
	src := "\ufeffimport os, pkg.tools as t\nfrom . import server\nfrom .reg import (\n    register_all,\n)\n  from pkg.a import b, c as d\nx = 'from y import z'\n"
	lines, _ := importLines([]byte(src), "pkg.main", false)
	got := strings.Join(lines, ",")
	want := "os,pkg.tools,pkg,pkg.server,pkg.reg,pkg.reg.register_all,pkg.a,pkg.a.b,pkg.a.c"
	if got != want {
		t.Errorf("importLines:\n got %s\nwant %s", got, want)
	}
}

// Import statements as Python's tokenizer delimits them: the prefilter must
// never miss an import (a file it skips is never parsed), whatever spaces,
// statement separators or compound statements surround it.
func TestImportLinesFollowPythonsTokenizer(t *testing.T) {
	for _, c := range []struct {
		src, want string
		ok        bool
	}{
		{"\fimport mcp\n", "mcp", true},
		{"import\tmcp\n", "mcp", true},
		{"from\tmcp.server\timport\tFastMCP\n", "mcp.server,mcp.server.FastMCP", true},
		{"x=1; from mcp import y\n", "mcp,mcp.y", true},
		{"x = 1 ;import mcp ; import os\n", "mcp,os", true},
		{"if True: from mcp import y\n", "mcp,mcp.y", true},
		{"try: import mcp\nexcept ImportError: import fastmcp as mcp\n", "mcp,fastmcp", true},
		{"class A: import mcp\n", "mcp", true},
		{"with x: import mcp\n", "mcp", true},
		{"def f():\n    if x:\n\timport mcp\n", "mcp", true},
		{"import \\\n    mcp\n", "mcp", true},
		{"import\\\nmcp\n", "mcp", true},
		{"from mcp \\\n  import (x,\n  # a comment\n  y as z)\n", "mcp,mcp.x,mcp.y", true},
		{"from.server import app\n", "pkg.server,pkg.server.app", true},
		{"from .import x\n", "pkg,pkg.x", true},
		{"from . server import app\n", "pkg.server,pkg.server.app", true},
		{"import a . b as c, d\n", "a.b,d", true},
		{"x = y if z else w; import mcp\r\nimport os\rimport re\n", "mcp,os,re", true},
		{"\ufeffimport mcp\n", "mcp", true},
		{"x = {'a': 1}; import mcp\n", "mcp", true},
		{"d[1:2]; import mcp\n", "mcp", true},
		{"lambda: 0; import mcp\n", "mcp", true},
		// Not imports.
		{"x = 'import mcp'\n", "", true},
		{"# import mcp\n", "", true},
		{"s = \"\"\"\nimport mcp\n\"\"\"\n", "", true},
		{"s = r'\\'' ; t = 'import mcp'\n", "", true},
		{"important = 1\nfromage = 2\n", "", true},
		{"yield from x\n", "", true},
		// What the scan cannot follow to the end is in doubt: the file is
		// parsed. A line that starts with import is read anyway.
		{"x = (1,\nimport mcp\n", "mcp", false},
		{"s = \"\"\"never closed\nimport mcp\n", "", false},
	} {
		refs, ok := importLines([]byte(c.src), "pkg.main", false)
		if got := strings.Join(refs, ","); got != c.want || ok != c.ok {
			t.Errorf("importLines(%q) = %q, %v; want %q, %v", c.src, got, ok, c.want, c.ok)
		}
	}
}

// A server whose framework import only the tokenizer's rules find is parsed
// and its findings reported (they were skipped, silently).
func TestPrefilterAdmitsEveryImportForm(t *testing.T) {
	body := "\nimport anyio\nmcp = FastMCP('s')\n\n@mcp.tool()\nasync def t():\n    return await anyio.to_thread.run_sync(print)\n"
	for name, imp := range map[string]string{
		"formfeed":  "\ffrom mcp.server.fastmcp import FastMCP",
		"tabs":      "from\tmcp.server.fastmcp\timport\tFastMCP",
		"semicolon": "x = 1; from mcp.server.fastmcp import FastMCP",
		"compound":  "if True: from mcp.server.fastmcp import FastMCP",
		"backslash": "from \\\n  mcp.server.fastmcp import FastMCP",
		"try":       "try: from mcp.server.fastmcp import FastMCP\nexcept ImportError: raise",
	} {
		root := testfs.Write(t, map[string]string{
			"requirements.txt": "mcp==1.26.0\n",
			"server.py":        imp + "\n" + body,
		})
		res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP101")}})
		if got := codes(root, res); len(got) != 1 || !strings.HasSuffix(got[0], ":MCP101:error") || res.Parsed != 1 {
			t.Errorf("%s: findings %q, %d files parsed; want one MCP101 in the parsed server.py", name, got, res.Parsed)
		}
	}
}
