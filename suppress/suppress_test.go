package suppress

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// server is a handler with an MCP104 finding (line 16) and an MCP101 one
// (line 18), for a project pinned to mcp 1.x. sprintf fills the first %s
// with a comment for the MCP101 line, the second for the MCP104 line.
const server = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


def work():
    return 1


@mcp.tool()
async def t() -> str:
    s = "# mcplint: ignore[MCP101] in a string, not a comment"
    try:
        await anyio.sleep(1)
    except BaseException:{104}
        return "cancelled"
    await anyio.to_thread.run_sync(work){101}
    return "x"
`

// run analyses dir with the suppression processor and returns the findings
// as "base:line CODE" strings.
func run(t *testing.T, dir string, p *Processor) (*engine.Result, []string) {
	t.Helper()
	var sel []*rules.Rule
	for _, r := range rules.All() {
		if !r.DefaultOff || p.Enabled != nil && p.Enabled(r.Code) {
			sel = append(sel, r)
		}
	}
	res, err := engine.Run([]string{dir}, engine.Options{Rules: sel, Processors: []engine.Processor{p}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		s := filepath.Base(d.Path) + ":" + strconv.Itoa(d.Start.Line) + " " + d.Code
		if d.Suppression != nil {
			s += " (suppressed)"
		}
		got = append(got, s)
	}
	return res, got
}

func equal(t *testing.T, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUnsuppressedBaseline(t *testing.T) {
	dir := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0\n",
		"server.py":        sprintf(server, "", ""),
	})
	_, got := run(t, dir, &Processor{})
	equal(t, got, []string{"requirements.txt:1 MCP001", "server.py:18 MCP101", "server.py:16 MCP104"})
}

func sprintf(format string, args ...string) string {
	return strings.NewReplacer("{101}", args[0], "{104}", args[1]).Replace(format)
}

func TestPythonForms(t *testing.T) {
	cases := []struct {
		name, line14, line17 string
		want                 []string
		suppressed           map[string]int
	}{
		{"trailing", "  # mcplint: ignore[MCP101] work() is instant", "  # mcplint: ignore[MCP104] logged upstream",
			nil, map[string]int{"MCP101": 1, "MCP104": 1}},
		{"noqa", "  # noqa: E501, MCP101", "  # NOQA: MCP104",
			nil, map[string]int{"MCP101": 1, "MCP104": 1}},
		{"names", "  # mcplint: ignore[uncancellable-thread-await] reason", "",
			[]string{"server.py:16 MCP104"}, map[string]int{"MCP101": 1}},
		{"several codes", "  # mcplint: ignore[MCP104, MCP101] reason", "",
			[]string{"server.py:16 MCP104", "server.py:18 MCP901"}, map[string]int{"MCP101": 1}},
		{"wrong code", "  # mcplint: ignore[MCP104] reason", "",
			[]string{"server.py:18 MCP101", "server.py:16 MCP104", "server.py:18 MCP901"}, map[string]int{}},
		{"unknown code", "  # mcplint: ignore[MCP101, MCP999] reason", "",
			[]string{"server.py:16 MCP104", "server.py:18 MCP901"}, map[string]int{"MCP101": 1}},
		{"other tools only", "  # noqa: E501  # type: ignore", "",
			[]string{"server.py:18 MCP101", "server.py:16 MCP104"}, map[string]int{}},
		{"after another comment", "  # type: ignore  # mcplint: ignore[MCP101] reason", "",
			[]string{"server.py:16 MCP104"}, map[string]int{"MCP101": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := testfs.Write(t, map[string]string{
				"requirements.txt": "mcp==1.20.0  # mcplint: ignore[MCP001] pinned by the platform\n",
				"server.py":        sprintf(server, c.line14, c.line17),
			})
			res, got := run(t, dir, &Processor{})
			equal(t, got, c.want)
			c.suppressed["MCP001"] = 1
			for code, n := range c.suppressed {
				if res.Suppressed[code] != n {
					t.Errorf("Suppressed[%s] = %d, want %d (%v)", code, res.Suppressed[code], n, res.Suppressed)
				}
			}
		})
	}
}

func TestOwnLineAboveAndFile(t *testing.T) {
	src := sprintf(server, "", "")
	above := strings.Replace(src, "    await anyio.to_thread", "    # mcplint: ignore[MCP101] instant\n    await anyio.to_thread", 1)
	dir := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": above})
	_, got := run(t, dir, &Processor{})
	equal(t, got, []string{"requirements.txt:1 MCP001", "server.py:16 MCP104"})

	// A comment two lines above covers nothing (and is unused).
	far := strings.Replace(src, "    await anyio.to_thread", "    # mcplint: ignore[MCP101] instant\n\n    await anyio.to_thread", 1)
	dir = testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": far})
	_, got = run(t, dir, &Processor{})
	equal(t, got, []string{"requirements.txt:1 MCP001", "server.py:18 MCP901", "server.py:20 MCP101", "server.py:16 MCP104"})

	// A trailing comment does not cover the next line.
	trailing := strings.Replace(src, "    s = \"", "    x = 1  # mcplint: ignore[MCP101] no\n    s = \"", 1)
	dir = testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": trailing})
	_, got = run(t, dir, &Processor{})
	equal(t, got, []string{"requirements.txt:1 MCP001", "server.py:13 MCP901", "server.py:19 MCP101", "server.py:17 MCP104"})

	file := "# mcplint: ignore-file[MCP101, MCP104] generated code\n" + src
	dir = testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": file})
	res, got := run(t, dir, &Processor{})
	equal(t, got, []string{"requirements.txt:1 MCP001"})
	if res.Suppressed["MCP101"] != 1 || res.Suppressed["MCP104"] != 1 {
		t.Errorf("Suppressed = %v", res.Suppressed)
	}
}

func TestDependencyFiles(t *testing.T) {
	cases := map[string]map[string]string{
		"requirements trailing": {"requirements.txt": "anyio\nmcp==1.20.0  # mcplint: ignore[MCP001] platform pin\n"},
		"requirements above":    {"requirements.txt": "# mcplint: ignore[MCP001] platform pin\nmcp==1.20.0\n"},
		"requirements noqa":     {"requirements.txt": "mcp==1.20.0 # noqa: MCP001\n"},
		"requirements file":     {"requirements.txt": "# mcplint: ignore-file[MCP001] vendored\nanyio\n\nmcp==1.20.0\n"},
		"pyproject trailing": {"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\n" +
			"    \"anyio\",\n    \"mcp==1.20.0\",  # mcplint: ignore[MCP001] platform pin\n]\n"},
		"pyproject above": {"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\n" +
			"    # mcplint: ignore[MCP001] platform pin\n    \"mcp==1.20.0\",\n]\n"},
		"pyproject one line": {"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\"mcp==1.20.0\"]  # mcplint: ignore[MCP001] pin\n"},
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			files["server.py"] = lowLevelServer // MCP001 reports server projects
			res, got := run(t, testfs.Write(t, files), &Processor{})
			equal(t, got, nil)
			if res.Suppressed["MCP001"] != 1 {
				t.Errorf("Suppressed = %v", res.Suppressed)
			}
		})
	}
	// Not comments: a '#' inside a TOML string or a URL fragment.
	notComments := map[string]map[string]string{
		"toml string":           {"pyproject.toml": "[project]\nname = \"x\"\ndescription = \"# mcplint: ignore-file[MCP001] no\"\ndependencies = [\"mcp==1.20.0\"]\n"},
		"toml multiline string": {"pyproject.toml": "[project]\nname = \"x\"\ndescription = '''\n# mcplint: ignore-file[MCP001] no\n'''\ndependencies = [\"mcp==1.20.0\"]\n"},
		"requirements fragment": {"requirements.txt": "mcp==1.20.0\nfoo @ https://x.invalid/foo.zip#mcplint:ignore-file[MCP001]\n"},
	}
	for name, files := range notComments {
		t.Run(name, func(t *testing.T) {
			files["server.py"] = lowLevelServer // MCP001 reports server projects
			_, got := run(t, testfs.Write(t, files), &Processor{})
			for _, g := range got {
				if strings.HasSuffix(g, "MCP001") {
					return
				}
			}
			t.Errorf("MCP001 was suppressed by text that is not a comment: %v", got)
		})
	}
}

// lowLevelServer makes a test tree a server project, which MCP001 reports.
const lowLevelServer = "from mcp.server.lowlevel import Server\nserver = Server('x')\n"

func TestKeepSuppressed(t *testing.T) {
	dir := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0  # mcplint: ignore[MCP001] platform pin\n", "server.py": lowLevelServer})
	res, got := run(t, dir, &Processor{Keep: true})
	equal(t, got, []string{"requirements.txt:1 MCP001 (suppressed)"})
	s := res.Diagnostics[0].Suppression
	if s.Justification != "platform pin" || s.Start.Line != 1 || s.Start.Column != 14 {
		t.Errorf("suppression = %+v", s)
	}
	if res.Suppressed["MCP001"] != 1 {
		t.Errorf("Suppressed = %v", res.Suppressed)
	}
}

func TestRuleNotRunIsNotUnused(t *testing.T) {
	dir := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": sprintf(server, "  # mcplint: ignore[MCP101] x", "")})
	only := map[string]bool{"MCP000": true, "MCP001": true, "MCP104": true, "MCP901": true}
	p := &Processor{Enabled: func(c string) bool { return only[c] }}
	res, err := engine.Run([]string{dir}, engine.Options{Rules: []*rules.Rule{rules.Lookup("MCP001"), rules.Lookup("MCP104")}, Processors: []engine.Processor{p}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "MCP901" {
			t.Errorf("unused suppression reported for a rule that did not run: %s", d.Message)
		}
	}
}

func TestWithoutReason(t *testing.T) {
	dir := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0  # mcplint: ignore[MCP001]\n",
		"server.py":        sprintf(server, "  # noqa: MCP101", "  # mcplint: ignore[MCP104] -- logged"),
	})
	_, got := run(t, dir, &Processor{}) // MCP900 is off by default
	equal(t, got, nil)
	on := &Processor{Enabled: func(c string) bool { r := rules.Lookup(c); return r != nil && (!r.DefaultOff || c == "MCP900") }}
	_, got = run(t, dir, on)
	equal(t, got, []string{"requirements.txt:1 MCP900", "server.py:18 MCP900"})
}

func TestPerFileIgnores(t *testing.T) {
	dir := testfs.Write(t, map[string]string{
		"requirements.txt":     "mcp==1.20.0\n",
		"server.py":            sprintf(server, "", ""),
		"tests/test_server.py": sprintf(server, "", ""),
	})
	pf := NewPerFileIgnores(dir, []config.PerFileIgnore{
		{Pattern: config.Item{Value: "tests/**"}, Codes: []config.Item{{Value: "MCP1"}}},
		{Pattern: config.Item{Value: "requirements.txt"}, Codes: []config.Item{{Value: "mcp-v1-pin"}}},
	})
	res, err := engine.Run([]string{dir}, engine.Options{Processors: []engine.Processor{&Processor{}, pf}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		rel, _ := filepath.Rel(dir, d.Path)
		got = append(got, filepath.ToSlash(rel)+":"+strconv.Itoa(d.Start.Line)+" "+d.Code)
	}
	equal(t, got, []string{"server.py:16 MCP104", "server.py:18 MCP101"})
	if res.Dropped["per-file-ignores"] != 3 {
		t.Errorf("Dropped = %v", res.Dropped)
	}
}

// The suppression stage parses a Python file whose comments the engine did
// not keep within the run's parse limits, not pyast.DefaultLimits: a file
// the run's limits make too complex (MCP000) is not parsed again with the
// larger defaults, so its directives are not read (and MCP000 stays), as
// its findings are not.
func TestPythonCommentsWithinTheRunsParseLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("# mcplint: ignore-file[MCP000] generated\nimport mcp\n")
	for i := 0; i < 200; i++ {
		b.WriteString("x = [1, 2, 3]\n")
	}
	dir := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "big.py": b.String()})
	lim := pyast.DefaultLimits
	lim.Nodes = 100
	res, err := engine.Run([]string{dir}, engine.Options{
		Rules:      rules.All(),
		Limits:     &engine.Limits{Parse: lim, FunctionSteps: engine.DefaultLimits.FunctionSteps},
		Processors: []engine.Processor{&Processor{ParseLimits: &lim}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Diagnostics {
		if filepath.Base(d.Path) == "big.py" {
			got = append(got, filepath.Base(d.Path)+" "+d.Code+" "+d.Message)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "big.py MCP000 too complex") {
		t.Fatalf("findings %q: want big.py's MCP000 (too complex), its directive unread", got)
	}
}

// In a file not fully analysed (here a syntax error at its end), a
// suppression that matched nothing may cover what the analysis missed: it
// is not reported unused, and what is reported about the comments gets no
// fix to apply (ruff's RUF100 makes the same call; ruff issue 5437 is
// --fix deleting valid noqa comments from a file being edited).
func TestUnusedSuppressionInAFileNotFullyAnalysed(t *testing.T) {
	src := sprintf(server, "  # mcplint: ignore[MCP101] reason", "  # mcplint: ignore[MCP101, MCP999] reason") + "\ndef unfinished(:\n"
	dir := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": src})
	res, got := run(t, dir, &Processor{})
	var meta []rules.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Code == rules.UnusedSuppressionCode {
			meta = append(meta, d)
		}
	}
	// MCP999 is no rule whatever the analysis saw; the MCP101 on line 16
	// (where no MCP101 was found) is not reported.
	if len(meta) != 1 || !strings.Contains(meta[0].Message, "MCP999 is not an mcplint rule") || strings.Contains(meta[0].Message, "MCP101") {
		t.Fatalf("findings %q, MCP901 %+v", got, meta)
	}
	for _, fx := range meta[0].Fixes {
		if fx.Applicability != rules.DisplayOnly {
			t.Errorf("fix %q applies in a file with a syntax error", fx.Message)
		}
	}
}
