package rules

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// parseModule parses src as module app.py.
func parseModule(t *testing.T, src string) *pyast.Module {
	t.Helper()
	m, err := pyast.Parse("app.py", "app", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// stmtAt returns the statement that starts with the first occurrence of
// marker in m's source.
func stmtAt(t *testing.T, m *pyast.Module, marker string) *pyast.Node {
	t.Helper()
	off := strings.Index(string(m.Src), marker)
	if off < 0 {
		t.Fatalf("no %q in source", marker)
	}
	s := pyast.Statement(m.Root.DescendantForByteRange(uint(off), uint(off)))
	if s == nil || int(s.StartByte()) != off {
		t.Fatalf("no statement starts at %q", marker)
	}
	return s
}

func TestCheckpointAfter(t *testing.T) {
	cases := []struct {
		name, src, stmt string
		then            []string
		want            string // "" when no edit is possible
	}{
		{"statement", "import anyio\n\nasync def h():\n    await f()\n    return 1\n", "await f()", nil,
			"import anyio\n\nasync def h():\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n    return 1\n"},
		{"then lines", "import anyio\n\nasync def h():\n    r = await f()\n", "r = await f()", []string{"return r"},
			"import anyio\n\nasync def h():\n    r = await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n    return r\n"},
		{"adds the import after docstring and future", "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nimport os\n\nasync def h():\n    await f()\n",
			"await f()", nil,
			"\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nimport os\n\nimport anyio\n\nasync def h():\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"reuses from anyio import lowlevel", "from anyio import lowlevel\n\nasync def h():\n    await f()\n", "await f()", nil,
			"from anyio import lowlevel\n\nasync def h():\n    await f()\n    await lowlevel.checkpoint_if_cancelled()\n"},
		{"reuses the function itself", "from anyio.lowlevel import checkpoint_if_cancelled as cic\n\nasync def h():\n    await f()\n", "await f()", nil,
			"from anyio.lowlevel import checkpoint_if_cancelled as cic\n\nasync def h():\n    await f()\n    await cic()\n"},
		{"reuses import anyio.lowlevel", "import anyio.lowlevel\n\nasync def h():\n    await f()\n", "await f()", nil,
			"import anyio.lowlevel\n\nasync def h():\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"a local import after the use is no binding", "import os\n\nasync def h():\n    await f()\n    from anyio import lowlevel\n", "await f()", nil,
			"import os\n\nasync def h():\n    import anyio\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n    from anyio import lowlevel\n"},
		{"keeps a local import local", "import os\n\nasync def h():\n    import httpx\n    await f()\n", "await f()", nil,
			"import os\n\nasync def h():\n    import anyio\n    import httpx\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"anyio imported only in another function", "import os\n\ndef g():\n    import anyio\n\nasync def h():\n    x = 1\n    await f()\n", "await f()", nil,
			"import os\n\ndef g():\n    import anyio\n\nasync def h():\n    import anyio\n    x = 1\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"type-checking import", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from anyio import lowlevel\n\nasync def h():\n    await f()\n", "await f()", nil,
			"from typing import TYPE_CHECKING\n\nimport anyio\n\nif TYPE_CHECKING:\n    from anyio import lowlevel\n\nasync def h():\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"alias", "import anyio as aio\n\nasync def h():\n    await f()\n", "await f()", nil,
			"import anyio as aio\n\nasync def h():\n    await f()\n    await aio.lowlevel.checkpoint_if_cancelled()\n"},
		{"no newline at the end", "import anyio\n\nasync def h():\n    await f()", "await f()", nil,
			"import anyio\n\nasync def h():\n    await f()\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"crlf block ending in a comment", "import anyio\r\n\r\nasync def h():\r\n    with s:\r\n        await f()  # note\r\n    return 1\r\n", "with s:", nil,
			"import anyio\r\n\r\nasync def h():\r\n    with s:\r\n        await f()  # note\r\n    await anyio.lowlevel.checkpoint_if_cancelled()\r\n    return 1\r\n"},
		{"trailing comment", "import anyio\n\nasync def h():\n    await f()  # why\n", "await f()", nil,
			"import anyio\n\nasync def h():\n    await f()  # why\n    await anyio.lowlevel.checkpoint_if_cancelled()\n"},
		{"code after it on the line", "import anyio\n\nasync def h():\n    await f(); g()\n", "await f()", nil, ""},
		{"not first on its line", "import anyio\n\nasync def h():\n    g(); await f()\n", "await f()", nil, ""},
		{"anyio is something else", "anyio = object()\n\nasync def h():\n    await f()\n", "await f()", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parseModule(t, c.src)
			edits, _, ok := checkpointAfter(nil, m, stmtAt(t, m, c.stmt), c.then...)
			switch {
			case !ok && c.want != "":
				t.Fatal("no edits")
			case ok && c.want == "":
				t.Fatalf("unexpected edits %+v", edits)
			case ok:
				if got := applyFix(t, c.src, Fix{Edits: edits}); got != c.want {
					t.Errorf("got\n%q\nwant\n%q", got, c.want)
				}
			}
		})
	}
}

func TestAppendArg(t *testing.T) {
	cases := map[string]string{
		"f()\n":                   "f(k=1)\n",
		"f(a)\n":                  "f(a, k=1)\n",
		"f(a, b=2)\n":             "f(a, b=2, k=1)\n",
		"f(a  # note\n)\n":        "f(a, k=1  # note\n)\n",
		"f(  # note\n    a,\n)\n": "f(  # note\n    a, k=1,\n)\n",
	}
	for src, want := range cases {
		m := parseModule(t, src)
		call := pyast.Unparen(stmtAt(t, m, "f(").NamedChild(0))
		e, _ := appendArg(m, call.ChildByFieldName("arguments"), "k=1")
		if got := applyFix(t, src, Fix{Edits: []Edit{e}}); got != want {
			t.Errorf("%q: got %q, want %q", src, got, want)
		}
	}
}

func TestLines(t *testing.T) {
	src := []byte("a\r\nbb\nc")
	for _, c := range []struct{ off, start, end int }{{0, 0, 1}, {1, 0, 1}, {3, 3, 5}, {6, 6, 7}, {7, 6, 7}} {
		if s, e := pystyle.LineStart(src, c.off), pystyle.LineEnd(src, c.off); s != c.start || e != c.end {
			t.Errorf("line of %d: [%d, %d), want [%d, %d)", c.off, s, e, c.start, c.end)
		}
	}
	for eol, want := range map[int]string{1: "\r\n", 5: "\n", 7: ""} {
		if got := pystyle.BreakAt(src, eol); got != want {
			t.Errorf("pystyle.BreakAt(%d) = %q, want %q", eol, got, want)
		}
	}
	for s, want := range map[string]string{"a\r\nb\n": "\r\n", "a\nb\r\n": "\n", "a": "\n"} {
		if got := pystyle.Newline([]byte(s)); got != want {
			t.Errorf("pystyle.Newline(%q) = %q, want %q", s, got, want)
		}
	}
}

// The project's own top-level modules are first party even when the engine
// did not parse them: files and folders at the root or under src/.
func TestFirstPartyFromProjectFiles(t *testing.T) {
	p := &Pass{
		Project: &deps.Project{Dir: "proj"},
		PyFiles: []string{"proj/server.py", "proj/src/notes/db.py", "proj/tests/test_x.py", "other/x.py"},
	}
	for top, want := range map[string]bool{"server": true, "notes": true, "tests": true, "src": false, "x": false, "other": false, "anyio": false} {
		if got := p.firstParty(top); got != want {
			t.Errorf("firstParty(%q) = %v, want %v", top, got, want)
		}
	}
}

// boundTo is asked once a finding: its cost must not grow with the names of
// the module (it sorted every enclosing scope's names on each call, so 5,000
// handlers in one module took 15 s). Measured in bytes allocated per call,
// after the first: the same for a module of 5,000 names as for one of 5.
func TestBoundToCostDoesNotGrowWithTheModule(t *testing.T) {
	perCall := func(names int) uint64 {
		var src strings.Builder
		src.WriteString("import anyio as zz\n")
		for i := 0; i < names; i++ {
			fmt.Fprintf(&src, "def f_%d():\n    pass\n", i)
		}
		m, err := pyast.Parse("m.py", "m", []byte(src.String()))
		if err != nil {
			t.Fatal(err)
		}
		at := m.Funcs[len(m.Funcs)-1].Body
		sc := m.ScopeAt(at)
		if got := boundTo(m, sc, at, "anyio"); got != "zz" {
			t.Fatalf("%d names: boundTo = %q, want zz", names, got)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const calls = 200
		for i := 0; i < calls; i++ {
			boundTo(m, sc, at, "anyio")
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / calls
	}
	small, large := perCall(5), perCall(5000)
	if large > small+64 {
		t.Errorf("boundTo allocates %d bytes a call in a module of 5,000 functions, %d in one of 5: its cost grows with the module", large, small)
	}
}
