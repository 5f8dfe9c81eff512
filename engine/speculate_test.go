package engine

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// specTree is one project of four modules, three with an MCP101 finding
// each, and a second project with one.
func specTree(t *testing.T) string {
	tool := func(name string) string {
		return "from mcp.server.fastmcp import FastMCP\nimport anyio\nfrom helpers import work\nmcp = FastMCP('" + name + "')\n\n@mcp.tool()\nasync def t():\n    return await anyio.to_thread.run_sync(work)\n"
	}
	return testfs.Write(t, map[string]string{
		"p/requirements.txt": "mcp==1.26.0\n",
		"p/a.py":             tool("a"),
		"p/b.py":             tool("b"),
		"p/c.py":             tool("c"),
		"p/helpers.py":       "def work(): return 1\n",
		"q/requirements.txt": "mcp==1.26.0\n",
		"q/server.py":        tool("q"),
		"q/helpers.py":       "def work(): return 1\n",
	})
}

// fixedB is p/b.py without its finding.
const fixedB = "from mcp.server.fastmcp import FastMCP\nfrom helpers import work\nmcp = FastMCP('b')\n\n@mcp.tool()\nasync def t():\n    return work()\n"

// guesser is an Options.Speculate that edits the files given (by path
// under the scan root "."), and records what it was given.
type guesser struct {
	mu    sync.Mutex
	edits map[string]string
	seen  []string // "path:CODE" of every finding it was given
	calls int
}

func (g *guesser) speculate(diags []rules.Diagnostic, read func(string) ([]byte, error)) map[string][]byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	for _, d := range diags {
		g.seen = append(g.seen, d.Path+":"+d.Code)
	}
	out := map[string][]byte{}
	for _, d := range diags {
		if e, ok := g.edits[d.Path]; ok {
			if _, err := read(d.Path); err != nil {
				panic(err)
			}
			out[d.Path] = []byte(e)
		}
	}
	return out
}

func specOpts(g *guesser) Options {
	return Options{Jobs: 2, Rules: []*rules.Rule{rules.Lookup("MCP101")}, Cache: NewCache(CacheOptions{}), Speculate: g.speculate, Parses: &atomic.Int64{}}
}

// next runs the analysis the guess was for (the fixer's next round: same
// cache, the edits as overlay, nothing more to guess) and compares it with
// a run without the cache.
func next(t *testing.T, opts Options, overlay map[string]string) *Result {
	t.Helper()
	opts.Speculate = nil
	opts.Overlay = map[string][]byte{}
	for p, s := range overlay {
		opts.Overlay[p] = []byte(s)
	}
	return cacheRun(t, ".", opts)
}

func TestSpeculationParsesOnlyTheEditedFilesAndIsUsedByTheNextRun(t *testing.T) {
	root := specTree(t)
	t.Chdir(root)
	g := &guesser{edits: map[string]string{"p/b.py": fixedB}}
	opts := specOpts(g)
	before := opts.Parses.Load()
	first := run(t, []string{"."}, opts)
	// Two projects: p's four modules and q's two parsed once, then b.py
	// alone for the speculative analysis of p; q's guess edits nothing.
	if n := opts.Parses.Load() - before; n != 7 {
		t.Errorf("%d files parsed, want 7 (6 modules, then only the edited one again)", n)
	}
	if first.Analysed != 2 || first.ParsedNow != 6 {
		t.Errorf("first run: %d analysed, %d parsed now; want 2 and 6 (the speculative analysis is not this run's)", first.Analysed, first.ParsedNow)
	}
	if got := strings.Join(g.seen, " "); got != "p/a.py:MCP101 p/b.py:MCP101 p/c.py:MCP101 q/server.py:MCP101" && got != "q/server.py:MCP101 p/a.py:MCP101 p/b.py:MCP101 p/c.py:MCP101" {
		t.Errorf("Speculate was given %s, want each project's findings, sorted", got)
	}
	if codes := codes(".", first); len(codes) != 4 {
		t.Fatalf("first run findings %v, want 4", codes)
	}
	before = opts.Parses.Load()
	res := next(t, opts, map[string]string{"p/b.py": fixedB})
	// next parsed p and q again for its run without the cache: 6 files;
	// the cached run itself parsed nothing.
	if n := opts.Parses.Load() - before; n != 6 {
		t.Errorf("%d files parsed, want 6 (only by the run without the cache)", n)
	}
	if res.Analysed != 1 || res.Reused != 1 || res.ParsedNow != 4 {
		t.Errorf("next run: %d analysed, %d reused, %d parsed now; want 1, 1 and 4: p's analysis made ahead counts as this run's", res.Analysed, res.Reused, res.ParsedNow)
	}
	if codes := strings.Join(codes(".", res), " "); strings.Contains(codes, "p/b.py") || len(res.Diagnostics) != 3 {
		t.Errorf("next run findings %s: the edited b.py must have been parsed again (its finding gone), the others kept", codes)
	}
	// Once used, the entry is the cache's as any other.
	again := next(t, opts, map[string]string{"p/b.py": fixedB})
	if again.Analysed != 0 || again.Reused != 2 || again.ParsedNow != 0 {
		t.Errorf("third run: %d analysed, %d reused, %d parsed now; want 0, 2, 0", again.Analysed, again.Reused, again.ParsedNow)
	}
}

func TestAWrongGuessIsNotUsed(t *testing.T) {
	root := specTree(t)
	t.Chdir(root)
	g := &guesser{edits: map[string]string{"p/b.py": fixedB}}
	opts := specOpts(g)
	run(t, []string{"."}, opts)
	// The next run gives b.py other contents, with its finding on another
	// line: the analysis made for fixedB must not be used.
	other := "from mcp.server.fastmcp import FastMCP\nimport anyio\nfrom helpers import work\nmcp = FastMCP('b')\n\n@mcp.tool()\nasync def t():\n    x = 1\n    return await anyio.to_thread.run_sync(work)\n"
	before := opts.Parses.Load()
	res := next(t, opts, map[string]string{"p/b.py": other})
	if n := opts.Parses.Load() - before; n != 10 {
		t.Errorf("%d files parsed, want 10 (p's four by the cached run, which could not use the guess, and six by the run without the cache)", n)
	}
	if res.Analysed != 1 || res.ParsedNow != 4 {
		t.Errorf("%d analysed, %d parsed now; want 1 and 4", res.Analysed, res.ParsedNow)
	}
	if len(res.Diagnostics) != 4 {
		t.Errorf("findings %v, want 4 (b.py's finding moved, not gone)", codes(".", res))
	}
}

func TestSpeculationReusesNoModuleOfAnEditedFile(t *testing.T) {
	// The edit keeps the size and the module name: a module reused by
	// path, size or name would keep the finding.
	root := specTree(t)
	t.Chdir(root)
	orig := "    return await anyio.to_thread.run_sync(work)\n"
	plain := "    return work()"
	plain += strings.Repeat(" ", len(orig)-1-len(plain)) + "\n"
	b, err := ReadFile("p/b.py")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), orig, plain, 1)
	if len(edited) != len(b) || edited == string(b) {
		t.Fatal("the edit must change b.py and keep its size")
	}
	g := &guesser{edits: map[string]string{"p/b.py": edited}}
	opts := specOpts(g)
	run(t, []string{"."}, opts)
	res := next(t, opts, map[string]string{"p/b.py": edited})
	if res.Analysed != 1 {
		t.Errorf("%d analysed, want 1 (the analysis made ahead)", res.Analysed)
	}
	if strings.Contains(strings.Join(codes(".", res), " "), "p/b.py") || len(res.Diagnostics) != 3 {
		t.Errorf("findings %v: b.py was analysed with its old module", codes(".", res))
	}
}

// dropC is a LocalProcessor that drops the findings of p/c.py.
type dropC struct{}

func (dropC) Name() string { return "drop-c" }
func (dropC) Process(_ *Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	out := diags[:0]
	for _, d := range diags {
		if d.Path != "p/c.py" {
			out = append(out, d)
		}
	}
	return out, nil
}

type localDropC struct{ dropC }

func (localDropC) Local() {}

func TestSpeculationSeesTheFindingsAsTheRunReportsThem(t *testing.T) {
	root := specTree(t)
	t.Chdir(root)
	g := &guesser{}
	opts := specOpts(g)
	opts.Processors = []Processor{localDropC{}}
	run(t, []string{"."}, opts)
	if got := fmt.Sprint(g.seen); strings.Contains(got, "p/c.py") || !strings.Contains(got, "p/a.py") {
		t.Errorf("Speculate was given %s: without the findings the processors drop", got)
	}
	// A processor that may depend on the whole run turns speculation off.
	g = &guesser{edits: map[string]string{"p/b.py": fixedB}}
	opts = specOpts(g)
	opts.Processors = []Processor{dropC{}}
	before := opts.Parses.Load()
	run(t, []string{"."}, opts)
	if g.calls != 0 || opts.Parses.Load()-before != 6 {
		t.Errorf("Speculate called %d times, %d files parsed; want 0 and 6 with a processor that is not local", g.calls, opts.Parses.Load()-before)
	}
}

func TestSpeculationLeavesOtherProjectsAndNewFilesAlone(t *testing.T) {
	root := specTree(t)
	t.Chdir(root)
	// Each guess also fixes p/b.py, which alone would be analysed ahead (7
	// files parsed): the other file it edits must turn that off.
	for _, edits := range []map[string]string{
		{"p/b.py": fixedB, "q/server.py": fixedB},                                                      // a file of another project
		{"p/b.py": fixedB, "p/new.py": "x = 1\n"},                                                      // a file the project does not have
		{"p/b.py": fixedB, "p/c.py": "# /// script\n# dependencies = ['mcp==1.26.0']\n# ///\nx = 1\n"}, // a file that becomes a script
	} {
		// The guess for p edits the files given whatever the finding's
		// file: a guesser of its own.
		calls := 0
		opts := specOpts(&guesser{})
		opts.Speculate = func(diags []rules.Diagnostic, read func(string) ([]byte, error)) map[string][]byte {
			if len(diags) == 0 || !strings.HasPrefix(diags[0].Path, "p/") {
				return nil
			}
			calls++
			out := map[string][]byte{}
			for p, s := range edits {
				out[p] = []byte(s)
			}
			return out
		}
		before := opts.Parses.Load()
		run(t, []string{"."}, opts)
		if n := opts.Parses.Load() - before; calls != 1 || n != 6 {
			t.Errorf("edits %v: %d calls, %d files parsed; want 1 call and no analysis ahead (6 files)", edits, calls, n)
		}
	}
}

func TestImportLinesAreReusedOnlyForTheSameBytesAndName(t *testing.T) {
	a, b := []byte("import aaa\n"), []byte("import bbb\n")
	e := &runner{ps: &projState{lines: map[string]importRefs{}}}
	if got, _ := e.importLinesOf("m.py", a, "m"); fmt.Sprint(got) != "[aaa]" {
		t.Fatalf("import lines %s, want [aaa]", got)
	}
	next := &runner{ps: &projState{priorLines: e.ps.lines}}
	for _, c := range []struct {
		src        []byte
		name, want string
	}{
		{a, "m", "[aaa]"},
		{b, "m", "[bbb]"}, // other bytes, same size
		{[]byte("from . import x\n"), "pkg.m", "[pkg pkg.x]"}, // a relative import depends on the name
	} {
		if got, _ := next.importLinesOf("m.py", c.src, c.name); fmt.Sprint(got) != c.want {
			t.Errorf("import lines of %q as %s: %s, want %s", c.src, c.name, got, c.want)
		}
	}
	// The same bytes under another name are read again.
	e.ps.lines["r.py"] = importRefs{src: []byte("from . import x\n"), name: "pkg.m", refs: []string{"stale"}}
	if got, _ := next.importLinesOf("r.py", []byte("from . import x\n"), "other.m"); fmt.Sprint(got) == "[stale]" {
		t.Errorf("import lines %s: reused for another module name", got)
	}
}

func TestAGuessThatPanicsIsNoGuess(t *testing.T) {
	root := specTree(t)
	t.Chdir(root)
	opts := specOpts(&guesser{})
	opts.Speculate = func([]rules.Diagnostic, func(string) ([]byte, error)) map[string][]byte { panic("bad plan") }
	before := opts.Parses.Load()
	res := run(t, []string{"."}, opts)
	if n := opts.Parses.Load() - before; n != 6 || len(res.Diagnostics) != 4 {
		t.Errorf("%d files parsed, %d findings; want 6 and 4: the run goes on without the analysis ahead", n, len(res.Diagnostics))
	}
}
