package pyast

import (
	"reflect"
	"strings"
	"testing"
)

func parse(t *testing.T, name, src string) *Module {
	t.Helper()
	m, err := Parse(name+".py", name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// callNames resolves every call's function in the module, in source order.
func callNames(m *Module) [][]string {
	var out [][]string
	Walk(m.Root, func(n *Node) bool {
		if n.Kind() == "call" {
			out = append(out, m.Resolve(Callee(n)))
		}
		return true
	})
	return out
}

func TestResolveImportForms(t *testing.T) {
	src := `import anyio
import anyio.to_thread as t
from anyio import to_thread
from anyio.to_thread import run_sync as rs
from . import helpers
from ..pkg import tools as tl
try:
    from fastmcp import FastMCP
except ImportError:
    from mcp.server.fastmcp import FastMCP

async def h():
    import starlette.concurrency as sc
    await anyio.to_thread.run_sync(f)
    await t.run_sync(f)
    await to_thread.run_sync(f)
    await rs(f)
    await sc.run_in_threadpool(f)
    helpers.go()
    tl.x()
    FastMCP("x")
    print()
`
	m := parse(t, "app.sub.server", src)
	got := callNames(m)
	want := [][]string{
		{"anyio.to_thread.run_sync"},
		{"anyio.to_thread.run_sync"},
		{"anyio.to_thread.run_sync"},
		{"anyio.to_thread.run_sync"},
		{"starlette.concurrency.run_in_threadpool"},
		{"app.sub.helpers.go"},
		{"app.pkg.tools.x"},
		{"fastmcp.FastMCP", "mcp.server.fastmcp.FastMCP"},
		{"print"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// A name no scope binds, in a module with star imports, can be the
// module's own module.name (which the handler index follows into the star
// sources) or a builtin; a bound name is not.
func TestResolveStarImports(t *testing.T) {
	m := parse(t, "app.tools", `from .runtime import *
from mcp.types import *
import json

@mcp.tool()
async def h():
    await _roots()
    json.dumps()
`)
	if want := []string{"app.runtime", "mcp.types"}; !reflect.DeepEqual(m.Stars, want) {
		t.Errorf("Stars = %q, want %q", m.Stars, want)
	}
	got := callNames(m)
	want := [][]string{{"app.tools.mcp.tool", "mcp.tool"}, {"app.tools._roots", "_roots"}, {"json.dumps"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if m := parse(t, "app.plain", "print()\n"); !reflect.DeepEqual(callNames(m), [][]string{{"print"}}) {
		t.Errorf("without star imports: %q", callNames(m))
	}
}

// A conditional expression of names aliases each of them; a call of a
// subscripted generic class is typed by the class.
func TestConditionalAliasAndGenericCall(t *testing.T) {
	m := parse(t, "app.server", `from fastmcp import FastMCP
from app.compat import Compat

cls = Compat if flag else FastMCP
maybe = FastMCP if flag else None
other = make() if flag else FastMCP
mcp = FastMCP[None]("x")
table = TOOLS["a"]("y")
cls()
maybe()
other()
`)
	got := callNames(m)[3:] // after make(), FastMCP[None](...), TOOLS["a"](...)
	want := [][]string{{"app.compat.Compat", "fastmcp.FastMCP"}, {"fastmcp.FastMCP"}, {"app.server.other"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var mcp, table *Node
	Walk(m.Root, func(n *Node) bool {
		if n.Kind() == "identifier" && m.Text(n) == "mcp" && mcp == nil {
			mcp = n
		}
		if n.Kind() == "identifier" && m.Text(n) == "table" && table == nil {
			table = n
		}
		return true
	})
	if got := m.TypesOf(mcp); !reflect.DeepEqual(got, []string{"fastmcp.FastMCP"}) {
		t.Errorf("TypesOf(mcp) = %q", got)
	}
	if got := m.TypesOf(table); !reflect.DeepEqual(got, []string{"TOOLS"}) {
		t.Errorf("TypesOf(table) = %q (the subscripted name; what it is, is for the caller)", got)
	}
}

func TestRelativeModule(t *testing.T) {
	cases := []struct {
		name      string
		pkg       bool
		dots      int
		rest, out string
	}{
		{"a.b.c", false, 1, "x", "a.b.x"},
		{"a.b.c", false, 2, "", "a"},
		{"a.b", true, 1, "x", "a.b.x"},
		{"a", true, 1, "", "a"},
		{"server", false, 1, "helpers", "helpers"},
	}
	for _, c := range cases {
		if got := RelativeModule(c.name, c.pkg, c.dots, c.rest); got != c.out {
			t.Errorf("RelativeModule(%q,%v,%d,%q) = %q, want %q", c.name, c.pkg, c.dots, c.rest, got, c.out)
		}
	}
}

func TestFunctionsAndTypes(t *testing.T) {
	src := `"""mod"""
from mcp.server.fastmcp import FastMCP, Context

mcp = FastMCP("demo")
alias = mcp

class Srv:
    def __init__(self):
        self.mcp = FastMCP("x")

    async def run(self, ctx: Context, *, n: int = 3, **kw) -> str:
        """Doc."""
        self.mcp.tool()
        return ""

@mcp.tool()
def sync_tool(a, *args):
    def inner(): pass
`
	m := parse(t, "srv", src)
	var names []string
	for _, f := range m.Funcs {
		names = append(names, f.Qual)
	}
	if want := []string{"srv.Srv.__init__", "srv.Srv.run", "srv.sync_tool", "srv.sync_tool.inner"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("functions %q, want %q", names, want)
	}
	run := m.Funcs[1]
	if !run.Async() || run.Doc() == nil || run.Class == nil || run.Class.Name != "Srv" {
		t.Errorf("run: async=%v doc=%v class=%v", run.Async(), run.Doc(), run.Class)
	}
	var kinds []ParamKind
	for _, p := range run.Params {
		kinds = append(kinds, p.Kind)
	}
	if want := []ParamKind{ParamPositional, ParamPositional, ParamKeywordOnly, ParamVarKeywords}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("param kinds %v, want %v", kinds, want)
	}
	if got := m.Scope.Lookup("mcp")[0].Types(); !reflect.DeepEqual(got, []string{"mcp.server.fastmcp.FastMCP"}) {
		t.Errorf("type of mcp = %q", got)
	}
	if got := m.Scope.Lookup("alias")[0].Targets(); !reflect.DeepEqual(got, []string{"srv.mcp"}) {
		t.Errorf("alias targets = %q", got)
	}
	st := m.Funcs[2]
	if len(st.Decorators) != 1 || m.Text(st.Decorators[0]) != "mcp.tool()" || st.Async() {
		t.Errorf("sync_tool decorators %d async %v", len(st.Decorators), st.Async())
	}
	// ctx: Context resolves the annotation; self.mcp has the class attribute's type.
	var ctxTypes, selfMcp []string
	Walk(run.Body, func(n *Node) bool {
		if n.Kind() == "attribute" && m.Text(n) == "self.mcp" {
			selfMcp = m.TypesOf(n)
		}
		return true
	})
	for _, b := range run.Scope.Local("ctx") {
		ctxTypes = b.Types()
	}
	if !reflect.DeepEqual(ctxTypes, []string{"mcp.server.fastmcp.Context"}) || !reflect.DeepEqual(selfMcp, []string{"mcp.server.fastmcp.FastMCP"}) {
		t.Errorf("ctx types %q, self.mcp types %q", ctxTypes, selfMcp)
	}
}

func TestLineIndex(t *testing.T) {
	li := NewLineIndex([]byte("ab\r\né😀x\n"))
	p := li.Position(4 + 2 + 4) // after é (2 bytes) and 😀 (4 bytes)
	if p.Line != 2 || p.Column != 3 || p.Column16 != 4 {
		t.Errorf("position %+v", p)
	}
	if li.LineText(1) != "ab" || li.LineText(2) != "é😀x" {
		t.Errorf("line texts %q %q", li.LineText(1), li.LineText(2))
	}
}

// The line starts of a file without a carriage return are found by a
// search for newlines, of one with one byte by byte: both must give every
// offset right after a line end (\n, \r\n or a lone \r).
func TestLineStarts(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []uint32
	}{
		{"", []uint32{0}},
		{"a", []uint32{0}},
		{"\n", []uint32{0, 1}},
		{"\n\n", []uint32{0, 1, 2}},
		{"ab\ncd", []uint32{0, 3}},
		{"ab\ncd\n", []uint32{0, 3, 6}},
		{"a\r\nb\rc\n\r", []uint32{0, 3, 5, 7, 8}},
		{"\r", []uint32{0, 1}},
		{"\r\n\r\n", []uint32{0, 2, 4}},
		{"x\n\r\ny", []uint32{0, 2, 4}},
	} {
		if got := NewLineIndex([]byte(c.src)).lineStarts(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: line starts %v, want %v", c.src, got, c.want)
		}
	}
}

func TestBOMAndErrors(t *testing.T) {
	m := parse(t, "b", "\xEF\xBB\xBFimport anyio\n")
	if m.HasErrors() {
		t.Errorf("BOM file parsed with errors")
	}
	if got := m.Scope.Lookup("anyio"); len(got) != 1 {
		t.Errorf("anyio binding after BOM: %v", got)
	}
	bad := parse(t, "c", "def f(:\n  pass\n")
	if !bad.HasErrors() || bad.FirstError() == nil {
		t.Errorf("syntax error not detected")
	}
}

// HasErrors answers from what it found the first time: the scan of the
// whole tree (grammarErrors) runs once per module, not once per rule that
// asks. The test marks the tree broken after the first answer; a second
// scan would see it.
func TestHasErrorsOnce(t *testing.T) {
	for _, src := range []string{"import anyio\n", "print 'x'\n"} {
		m := parse(t, "m", src)
		first := m.HasErrors()
		if first != (src != "import anyio\n") {
			t.Fatalf("%q: HasErrors %v", src, first)
		}
		m.Root.meta ^= flagHasError
		if got := m.HasErrors(); got != first {
			t.Errorf("%q: HasErrors %v the second time, %v the first: found again", src, got, first)
		}
	}
}

func TestStrayBOM(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"\ufeffimport os\n", -1},                         // a real byte order mark
		{"import anyio\n\ufeffimport os\n", 13},           // moved after an insertion
		{"x = 1 \ufeff+ 2\n", 6},                          // between tokens
		{"x = '\ufeff'\n# \ufeff\n", -1},                  // in a string and a comment
		{"x = f'\ufeff{y}'\n", -1},                        // in an f-string's text
		{"x = f'{y \ufeff}'\n", 9},                        // in an f-string's expression
		{"\ufeff\"\"\"doc \ufeff\"\"\"\nimport os\n", -1}, // BOM, then one in the docstring
	} {
		m, err := Parse("a.py", "a", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.StrayBOM(); got != c.want {
			t.Errorf("StrayBOM(%q) = %d, want %d", c.src, got, c.want)
		}
		if m.HasErrors() != (c.want >= 0) {
			t.Errorf("HasErrors(%q) = %v", c.src, m.HasErrors())
		}
	}
}

// TestResolveAttributeChains covers the chain forms resolve extends at once:
// parentheses, unbound roots, several bindings, and the depth past which a
// chain resolves to nothing (more than 8 attributes).
func TestResolveAttributeChains(t *testing.T) {
	m := parse(t, "app.mod", `import os
import os.path as p
try:
    import json as j
except ImportError:
    import simplejson as j
def f():
    out = {}
    (out).a.b()
    os.path.join()
    (p).join()
    j.dumps()
    len.x()
    out.a1.a2.a3.a4.a5.a6.a7()
    out.a1.a2.a3.a4.a5.a6.a7.a8()
    out.a1.a2.a3.a4.a5.a6.a7.a8.a9()
    f().x()
`)
	got := callNames(m)
	want := [][]string{
		{"app.mod.f.out.a.b"},
		{"os.path.join"},
		{"os.path.join"},
		{"json.dumps", "simplejson.dumps"},
		{"len.x"},
		{"app.mod.f.out.a1.a2.a3.a4.a5.a6.a7"},
		{"app.mod.f.out.a1.a2.a3.a4.a5.a6.a7.a8"},
		nil,
		nil,
		{"app.mod.f"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// A chained assignment binds every target to the last value, however many
// targets there are.
func TestChainedAssignmentValue(t *testing.T) {
	m := parse(t, "chain.py", "a = b = c = 1\n")
	for _, name := range []string{"a", "b", "c"} {
		bs := m.Scope.Lookup(name)
		if len(bs) != 1 {
			t.Fatalf("%s: %d bindings", name, len(bs))
		}
		if v := bs[0].Value(); v == nil || m.Text(v) != "1" {
			t.Errorf("%s: value %v, want 1", name, v)
		}
	}
}

// ReturnValue: a bare return (a comment on its line is no value) gives
// nil, a parenthesised value comes without its parentheses, a tuple whole.
func TestReturnValue(t *testing.T) {
	m := parse(t, "m", `def f(c):
    if c == 1:
        return  # nothing
    if c == 2:
        return (c)  # one
    if c == 3:
        return c, 1
    return
`)
	var got []string
	Walk(m.Root, func(n *Node) bool {
		if n.Kind() == "return_statement" {
			if v := ReturnValue(n); v != nil {
				got = append(got, v.Kind()+":"+m.Text(v))
			} else {
				got = append(got, "nil")
			}
		}
		return true
	})
	want := "nil|identifier:c|expression_list:c, 1|nil"
	if strings.Join(got, "|") != want {
		t.Errorf("ReturnValue: %s, want %s", strings.Join(got, "|"), want)
	}
}

// Returns gives the values of a function's own return statements, in
// order: not a bare return (with or without a comment after it), not the
// returns of a nested function or lambda.
func TestReturns(t *testing.T) {
	m := parse(t, "r", `def f(x):
    if x:
        return  # nothing
    def inner():
        return 3
    if x > 1:
        return (x)
    g = lambda: 4
    return inner, g
`)
	var got []string
	for _, v := range Returns(m.Funcs[0]) {
		got = append(got, m.Text(v))
	}
	if want := []string{"x", "inner, g"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Returns(f) = %q, want %q", got, want)
	}
}
