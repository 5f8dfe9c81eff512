package pystyle

import (
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

var anyioImport = Import{Module: "anyio"}

func place(t *testing.T, s Style, src string, fn string) string {
	t.Helper()
	m, err := pyast.Parse("app.py", "app", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var f *pyast.Function
	for _, g := range m.Funcs {
		if g.Name == fn {
			f = g
		}
	}
	firstParty := func(top string) bool { return top == "app" || top == "mypkg" }
	ins, ok := s.PlaceImport(m, anyioImport, "import anyio", f, firstParty)
	if !ok {
		return "<none>"
	}
	return src[:ins.At] + ins.Text + src[ins.At:]
}

func TestPlaceImport(t *testing.T) {
	cases := []struct {
		name, src, want string
		style           Style
		fn              string
	}{
		{name: "third-party section, straight before from",
			src:  "import os\n\nfrom fastmcp import FastMCP\n\nmcp = FastMCP()\n",
			want: "import os\n\nimport anyio\nfrom fastmcp import FastMCP\n\nmcp = FastMCP()\n"},
		{name: "sorted among straight imports",
			src:  "import os\n\nimport aiohttp\nimport httpx\nfrom mcp import x\n",
			want: "import os\n\nimport aiohttp\nimport anyio\nimport httpx\nfrom mcp import x\n"},
		{name: "new section between stdlib and first party",
			src:  "import asyncio\nimport os\n\nfrom mypkg import tools\n",
			want: "import asyncio\nimport os\n\nimport anyio\n\nfrom mypkg import tools\n"},
		{name: "new section after stdlib at the end of the block",
			src:  "import asyncio\nimport os\n\nx = 1\n",
			want: "import asyncio\nimport os\n\nimport anyio\n\nx = 1\n"},
		{name: "new section first",
			src:  "from . import helpers\n\nx = 1\n",
			want: "import anyio\n\nfrom . import helpers\n\nx = 1\n"},
		{name: "force-sort-within-sections",
			src:   "import os\n\nfrom aiohttp import web\nimport httpx\n",
			want:  "import os\n\nfrom aiohttp import web\nimport anyio\nimport httpx\n",
			style: Style{Isort: Isort{ForceSortWithinSections: true}}},
		{name: "known-first-party anyio (a vendored copy)",
			src:   "import os\n\nimport httpx\n\nfrom app import x\n",
			want:  "import os\n\nimport httpx\n\nimport anyio\nfrom app import x\n",
			style: Style{Isort: Isort{KnownFirstParty: []string{"anyio"}}}},
		{name: "case-insensitive by default",
			src:  "import Babel\nimport zeta\n",
			want: "import anyio\nimport Babel\nimport zeta\n"},
		{name: "case-sensitive",
			src:   "import Babel\nimport zeta\n",
			want:  "import Babel\nimport anyio\nimport zeta\n",
			style: Style{Isort: Isort{CaseSensitive: true}}},
		{name: "from-first",
			src:   "from fastmcp import FastMCP\nimport httpx\n",
			want:  "from fastmcp import FastMCP\nimport anyio\nimport httpx\n",
			style: Style{Isort: Isort{FromFirst: true}}},
		{name: "lines-between-types",
			src:   "import os\n\nfrom fastmcp import FastMCP\n",
			want:  "import os\n\nimport anyio\n\nfrom fastmcp import FastMCP\n",
			style: Style{Isort: Isort{LinesBetweenTypes: 1}}},
		{name: "header: shebang, encoding, docstring, future",
			src:  "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nimport os\n",
			want: "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nimport os\n\nimport anyio\n"},
		{name: "no imports: after the future import, two lines before a def",
			src:  "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\ndef f(): pass\n",
			want: "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nimport anyio\n\n\ndef f(): pass\n"},
		{name: "BOM with code on line 1",
			src:  "\ufeffx = 1\n",
			want: "\ufeffimport anyio\n\nx = 1\n"},
		{name: "BOM before a first-party import on line 1",
			src:  "\ufefffrom app import x\n",
			want: "\ufeffimport anyio\n\nfrom app import x\n"},
		{name: "comment attached to the next import goes with it",
			src:  "import aiohttp\n# the client\nimport httpx\n",
			want: "import aiohttp\nimport anyio\n# the client\nimport httpx\n"},
		{name: "section heading comment stays above",
			src:  "import os\n\n# third party\nimport httpx\n",
			want: "import os\n\n# third party\nimport anyio\nimport httpx\n"},
		{name: "block with the section preferred",
			src:  "import os\nsys_path_hack()\nimport httpx\n",
			want: "import os\nsys_path_hack()\nimport anyio\nimport httpx\n"},
		{name: "local imports",
			src:  "import os\n\nasync def h():\n    \"\"\"Doc.\"\"\"\n    import httpx\n    return 1\n",
			fn:   "h",
			want: "import os\n\nasync def h():\n    \"\"\"Doc.\"\"\"\n    import anyio\n    import httpx\n    return 1\n"},
		{name: "local, first in the body",
			src:  "async def h():\n    x = 1\n    import json\n",
			fn:   "h",
			want: "async def h():\n    import anyio\n    x = 1\n    import json\n"},
		{name: "crlf",
			src:  "import os\r\n\r\nx = 1\r\n",
			want: "import os\r\n\r\nimport anyio\r\n\r\nx = 1\r\n"},
		{name: "no newline at the end",
			src:  "import os",
			want: "import os\n\nimport anyio\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := place(t, c.style, c.src, c.fn); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestNaturalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"py2", "py10", -1}, {"a", "b", -1}, {"ab", "a", 1}, {"x01", "x1", 0}, {"a.b", "a_c", -1}} {
		if got := NaturalCompare(c.a, c.b); got != c.want {
			t.Errorf("NaturalCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestSectionOf(t *testing.T) {
	s := Style{Isort: Isort{KnownFirstParty: []string{"corp*"}, KnownThirdParty: []string{"app.vendored"}}}
	fp := func(top string) bool { return top == "app" }
	for _, c := range []struct {
		imp  Import
		want Section
	}{
		{Import{Module: "os.path"}, StandardLibrary},
		{Import{Module: "__future__", From: true}, Future},
		{Import{Module: "anyio"}, ThirdParty},
		{Import{Module: "app.tools", From: true}, FirstParty},
		{Import{Module: "app.vendored.x"}, ThirdParty},
		{Import{Module: "corplib"}, FirstParty},
		{Import{Module: "x", From: true, Level: 1}, LocalFolder},
	} {
		if got := s.SectionOf(c.imp, fp); got != c.want {
			t.Errorf("SectionOf(%+v) = %d, want %d", c.imp, got, c.want)
		}
	}
}
