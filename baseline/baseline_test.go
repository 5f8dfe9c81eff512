package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// server has an MCP104 finding in t and an MCP101 finding in u.
const server = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


def work():
    return 1


@mcp.tool()
async def t() -> str:
    try:
        await anyio.sleep(1)
    except BaseException:
        return "cancelled"
    return "x"


@mcp.tool()
async def u() -> str:
    await anyio.to_thread.run_sync(work)
    return "x"
`

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, dir string, procs ...engine.Processor) *engine.Result {
	t.Helper()
	res, err := engine.Run([]string{dir}, engine.Options{Processors: procs})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func codes(res *engine.Result) string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, filepath.Base(d.Path)+":"+d.Code)
	}
	return strings.Join(out, " ")
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": server})
	res := run(t, dir)
	if got := codes(res); got != "requirements.txt:MCP001 server.py:MCP104 server.py:MCP101" {
		t.Fatalf("findings before the baseline: %s", got)
	}
	bl := filepath.Join(dir, "mcplint-baseline.json")
	n, err := Write(bl, res)
	if err != nil || n != 3 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	b, _ := os.ReadFile(bl)
	if strings.Contains(string(b), dir) {
		t.Errorf("baseline holds absolute paths:\n%s", b)
	}

	// Lines inserted above every finding, and re-indentation, keep them known.
	shifted := strings.Replace(server, "import anyio\n", "import anyio\nimport os\n\n\n# a comment\n", 1)
	shifted = strings.Replace(shifted, "    await anyio.to_thread.run_sync(work)", "    x = 1\n    await  anyio.to_thread.run_sync(work)", 1)
	write(t, dir, map[string]string{"requirements.txt": "# pinned\nanyio\nmcp==1.20.0\n", "server.py": shifted})
	f, err := NewFilter(bl)
	if err != nil {
		t.Fatal(err)
	}
	res = run(t, dir, f)
	if got := codes(res); got != "" || f.Matched != 3 || f.Stale != 0 || res.Dropped[DroppedKey] != 3 {
		t.Fatalf("after shifting lines: findings %q, matched %d, stale %d, dropped %v", got, f.Matched, f.Stale, res.Dropped)
	}

	// A second copy of a known problem in the same function is new.
	twice := strings.Replace(shifted, "    return \"x\"\n\n\n@mcp.tool()\nasync def u",
		"    try:\n        await anyio.sleep(2)\n    except BaseException:\n        pass\n    return \"x\"\n\n\n@mcp.tool()\nasync def u", 1)
	write(t, dir, map[string]string{"server.py": twice})
	f, _ = NewFilter(bl)
	res = run(t, dir, f)
	if got := codes(res); got != "server.py:MCP104" || f.Stale != 0 {
		t.Fatalf("after copying a problem: findings %q, stale %d", got, f.Stale)
	}

	// A fixed problem leaves a stale entry.
	fixed := strings.Replace(twice, "run_sync(work)", "run_sync(work, abandon_on_cancel=True)", 1)
	write(t, dir, map[string]string{"server.py": fixed})
	f, _ = NewFilter(bl)
	res = run(t, dir, f)
	if got := codes(res); got != "server.py:MCP104" || f.Stale != 1 {
		t.Fatalf("after a fix: findings %q, stale %d", got, f.Stale)
	}

	// Moving the finding to another function makes it new.
	moved := strings.Replace(server, "async def u()", "async def v()", 1)
	write(t, dir, map[string]string{"server.py": moved})
	f, _ = NewFilter(bl)
	res = run(t, dir, f)
	if got := codes(res); got != "server.py:MCP101" {
		t.Fatalf("after renaming the function: %q", got)
	}
}

func TestSnippet(t *testing.T) {
	src := []byte("x = 1\n    await  f(\n        a)\n")
	d := rules.Diagnostic{}
	d.Start.Offset, d.End.Offset = 10, 30
	if got := Snippet(src, d); got != "await f(" {
		t.Errorf("Snippet = %q", got)
	}
	d.End.Offset = 10
	if got := Snippet(src, d); got != "await f(" {
		t.Errorf("empty-range Snippet = %q", got)
	}
	d.Start.Offset, d.End.Offset = 99, 120
	if got := Snippet(src, d); got != "" {
		t.Errorf("out-of-range Snippet = %q", got)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"not json":       "{",
		"other version":  `{"version": 9, "tool": "mcplint", "findings": []}`,
		"unknown field":  `{"version": 1, "tool": "mcplint", "findings": [], "extra": 1}`,
		"no fingerprint": `{"version": 1, "tool": "mcplint", "findings": [{"code": "MCP101"}]}`,
	}
	for name, content := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		write(t, dir, map[string]string{filepath.Base(p): content})
		if _, err := Read(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}

// A baseline's error quotes at most an excerpt of it (an unknown field's
// name comes from the file), with no control character.
func TestReadErrorIsBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"b.json": `{"version": 1, "` + strings.Repeat("k", 100000) + `\u001b[2J": 1}`})
	_, err := Read(filepath.Join(dir, "b.json"))
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); len(msg) > len(dir)+500 || strings.Contains(msg, "\x1b") {
		t.Errorf("the error quotes %d bytes: %.200q", len(msg), msg)
	}
}

// A baseline is committed and reviewed: a path or message with a
// bidirectional control, NEL or a line separator is written escaped, and
// reads back the same.
func TestEncodeEscapes(t *testing.T) {
	p := "rtl\u202eyp.py\u0085\u2028\u200f\u061c\u2066\x7f"
	f := &File{Version: 1, Tool: "mcplint", Findings: []Entry{{Fingerprint: "f", Code: "MCP101", Path: p}}}
	b, _, err := encode(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range string(b) {
		if r == 0x202e || r == 0x85 || r == 0x2028 || r == 0x200f || r == 0x61c || r == 0x2066 || r == 0x7f {
			t.Fatalf("raw %U in the baseline:\n%s", r, b)
		}
	}
	back, err := decode("b.json", b)
	if err != nil || back.Findings[0].Path != p {
		t.Errorf("decode: %v %+v", err, back)
	}
}
