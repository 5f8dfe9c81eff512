package fix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/suppress"
)

// breaker reports every handler with a "fix" that breaks the syntax, so
// that the fixer's check must refuse it.
var breaker = &rules.Rule{
	Code: "MCP998", Name: "test-breaker", Kind: rules.CodeRule, Severity: rules.SeverityError,
	Run: func(p *rules.Pass) {
		for _, h := range p.Handlers.Handlers {
			n := h.Func.Node.ChildByFieldName("name")
			p.ReportNode(h.Module, n, "test", nil, rules.Fix{
				Message: "break it", Applicability: rules.Safe,
				Edits: []rules.Edit{{Path: h.Module.Path, Start: int(n.EndByte()), End: int(n.EndByte()), New: "(:"}},
			})
		}
	},
}

// asyncTool is a server with one async tool and no finding of its own: the
// test rules make the findings and the fixes.
const asyncTool = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\nasync def t():\n    return 1\n"

func TestRunRefusesAFixThatBreaksTheSyntax(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"server.py": asyncTool,
	})
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{breaker}}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 0 || len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "would not parse") {
		t.Fatalf("files %d, failures %+v: the breaking fix must be refused", len(out.Files), out.Failures)
	}
	src, _ := os.ReadFile(filepath.Join(root, "server.py"))
	m, err := pyast.Parse("server.py", "server", src)
	if err != nil || m.HasErrors() {
		t.Fatal("the file on disk was changed")
	}
}

// bomBreaker inserts a line at byte 0, before the file's byte order mark,
// as MCP101's import insertion once did: tree-sitter reads the moved BOM as
// a space, CPython rejects it ("invalid non-printable character U+FEFF").
var bomBreaker = &rules.Rule{
	Code: "MCP997", Name: "test-bom-breaker", Kind: rules.CodeRule, Severity: rules.SeverityError,
	Run: func(p *rules.Pass) {
		for _, h := range p.Handlers.Handlers {
			n := h.Func.Node.ChildByFieldName("name")
			p.ReportNode(h.Module, n, "test", nil, rules.Fix{
				Message: "insert before the BOM", Applicability: rules.Safe,
				Edits: []rules.Edit{{Path: h.Module.Path, Start: 0, End: 0, New: "import anyio\n"}},
			})
		}
	},
}

func TestRunRefusesAFixThatMovesTheBOM(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"server.py": "\ufefffrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\nasync def t():\n    return 1\n",
	})
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{bomBreaker}}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 0 || len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "would not parse") {
		t.Fatalf("files %d, failures %+v: a fix that leaves U+FEFF after byte 0 must be refused", len(out.Files), out.Failures)
	}
}

// noopFix reports every handler's name with a "fix" that inserts a comment
// line above the handler and so leaves the finding in place.
var noopFix = &rules.Rule{
	Code: "MCP996", Name: "test-noop-fix", Kind: rules.CodeRule, Severity: rules.SeverityError,
	Run: func(p *rules.Pass) {
		for _, h := range p.Handlers.Handlers {
			n := h.Func.Node.ChildByFieldName("name")
			at := int(h.Func.Node.StartByte())
			p.ReportNode(h.Module, n, "test", nil, rules.Fix{
				Message: "a comment", Applicability: rules.Safe,
				Edits: []rules.Edit{{Path: h.Module.Path, Start: at, End: at, New: "# fixed?\n"}},
			})
		}
	},
}

// In a CRLF file the inserted line is one byte longer than its text: the
// check that a fix removed its finding looked one byte too early and let a
// fix that does nothing through (FuzzPlan found the offset mapping wrong).
func TestRunRefusesAFixThatLeavesItsFindingInACRLFFile(t *testing.T) {
	for name, nl := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		t.Run(name, func(t *testing.T) {
			src := strings.ReplaceAll(asyncTool, "\n", nl)
			root := testfs.Write(t, map[string]string{"server.py": src})
			out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{noopFix}}, Mode{})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Files) != 0 || len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "did not remove the finding") {
				t.Fatalf("files %d, failures %+v: a fix that leaves its finding must be refused", len(out.Files), out.Failures)
			}
		})
	}
}

// twoFileBreaker reports every handler with a fix that creates a module
// beside it (fine) and breaks the handler's file (refused by the check):
// the fix is applied whole or not at all, so the module is not created.
var twoFileBreaker = &rules.Rule{
	Code: "MCP995", Name: "test-two-file-breaker", Kind: rules.CodeRule, Severity: rules.SeverityError,
	Run: func(p *rules.Pass) {
		for _, h := range p.Handlers.Handlers {
			n := h.Func.Node.ChildByFieldName("name")
			created := filepath.ToSlash(filepath.Join(filepath.Dir(h.Module.Path), "helper.py"))
			p.ReportNode(h.Module, n, "test", nil, rules.Fix{
				Message: "create a module and break this file", Applicability: rules.Safe,
				Edits: []rules.Edit{
					{Path: created, New: "helper = 1\n", Create: true},
					{Path: h.Module.Path, Start: int(n.EndByte()), End: int(n.EndByte()), New: "(:"},
				},
			})
		}
	},
}

func TestRunRevertsEveryFileOfAFixThatFailsItsCheck(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"server.py": asyncTool,
	})
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{twoFileBreaker}}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range out.Files {
		files = append(files, f.Path)
	}
	if len(out.Files) != 0 || out.Fixed != 0 {
		t.Errorf("files %v fixed %d: the module of a fix whose other file failed its check must not be created", files, out.Fixed)
	}
	if len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "would not parse") {
		t.Errorf("failures %+v, want the broken file's", out.Failures)
	}
}

// noopAtStart reports every handler's def and "fixes" it by inserting a
// comment line right where the finding starts: the def, and the finding,
// move past the insertion.
var noopAtStart = &rules.Rule{
	Code: "MCP995", Name: "test-noop-fix-at-start", Kind: rules.CodeRule, Severity: rules.SeverityError,
	Run: func(p *rules.Pass) {
		for _, h := range p.Handlers.Handlers {
			at := int(h.Func.Node.StartByte())
			p.ReportNode(h.Module, h.Func.Node, "test", nil, rules.Fix{
				Message: "a comment", Applicability: rules.Safe,
				Edits: []rules.Edit{{Path: h.Module.Path, Start: at, End: at, New: "# fixed?\n"}},
			})
		}
	},
}

// The finding-gone check looked only before text inserted at the finding's
// start; a fix that changed nothing moved the finding past it and was
// accepted (FuzzFixLoop: MCP103's "async " before a def that error
// recovery still read as sync).
func TestRunRefusesAFixThatPushesItsFindingPastTheInsertion(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"server.py": asyncTool,
	})
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{noopAtStart}}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 0 || len(out.Failures) != 1 || !strings.Contains(out.Failures[0].Reason, "did not remove the finding") {
		t.Fatalf("files %d, failures %+v: a fix that leaves its finding must be refused", len(out.Files), out.Failures)
	}
}

// A file with syntax errors gets no fix: tree-sitter's error recovery read
// the column-0 "@mcp.tool / def B" as part of A's body, and MCP103's fix
// moved it into A's worker-thread helper (FuzzFixLoop crasher
// fcc531c8d01e0bd2). The findings stay, their fixes shown as advice.
func TestRunAppliesNoFixInAFileWithSyntaxErrors(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0\nfastmcp==3.0.0\n",
		"server.py":        "from fastmcp import FastMCP\nmcp = FastMCP()\n\n@mcp.tool\ndef a(x: int):\n    with:\n        slow(x)\n    return x\n@mcp.tool\ndef b():\n    return slow()\n",
	})
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{rules.Lookup("MCP103")}}, Mode{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 0 || len(out.Failures) != 0 {
		t.Fatalf("files %d, failures %+v: nothing may be fixed in a file with syntax errors", len(out.Files), out.Failures)
	}
	n := 0
	for _, d := range out.Result.Diagnostics {
		if d.Code != "MCP103" {
			continue
		}
		n++
		if Choose(&d, true) != nil {
			t.Errorf("%s at line %d still has a fix to apply", d.Code, d.Start.Line)
		}
		if len(d.Fixes) == 0 || !strings.Contains(d.Fixes[0].Message, "not applied: a file it edits has syntax errors") {
			t.Errorf("%s at line %d: fixes %+v, want the advice with its reason", d.Code, d.Start.Line, d.Fixes)
		}
	}
	if n == 0 {
		t.Fatal("no MCP103 finding: the test no longer exercises a fix")
	}
}

// passThrough is a processor that changes nothing but is not an
// engine.LocalProcessor: with it the engine analyses nothing ahead.
type passThrough struct{}

func (passThrough) Name() string { return "pass-through" }
func (passThrough) Process(_ *engine.Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	return diags, nil
}

func TestRunParsesOnlyTheEditedFilesAgainAndFixesAsBefore(t *testing.T) {
	tool := func(name string) string {
		return "from mcp.server.fastmcp import FastMCP\nimport anyio\nfrom helpers import work\nmcp = FastMCP('" + name + "')\n\n@mcp.tool()\nasync def t(x: int) -> str:\n    r = await anyio.to_thread.run_sync(work)\n    return str(r)\n"
	}
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"a.py":             tool("a"),
		"b.py":             tool("b"),
		"c.py":             tool("c"),
		"helpers.py":       "from more import one\ndef work(): return one()\n",
		"more.py":          "def one(): return 1\n",
	})
	t.Chdir(root)
	type outcome struct {
		files, failures, remaining string
		parsed                     int64
	}
	fixAll := func(procs []engine.Processor) outcome {
		t.Helper()
		var parsed atomic.Int64
		out, err := Run([]string{"."}, engine.Options{Jobs: 2, Rules: []*rules.Rule{rules.Lookup("MCP101")}, Processors: procs, Parses: &parsed}, Mode{})
		if err != nil {
			t.Fatal(err)
		}
		var o outcome
		o.parsed = parsed.Load()
		for _, f := range out.Files {
			o.files += fmt.Sprintf("%s fixed %d with %v:\n%s\n", f.Path, f.Fixed, f.With, f.New)
		}
		o.failures = fmt.Sprint(out.Failures)
		for _, d := range out.Result.Diagnostics {
			o.remaining += fmt.Sprintf("%s:%d %s %s\n", d.Path, d.Start.Line, d.Code, d.Message)
		}
		return o
	}
	ahead, plain := fixAll(nil), fixAll([]engine.Processor{passThrough{}})
	if strings.Count(ahead.files, "fixed 1") != 3 {
		t.Fatalf("fixed files:\n%s\nwant a.py, b.py and c.py fixed", ahead.files)
	}
	if ahead.files != plain.files || ahead.failures != plain.failures || ahead.remaining != plain.remaining {
		t.Errorf("the fixes differ with the analysis made ahead:\n%+v\nwithout:\n%+v", ahead, plain)
	}
	// Five modules parsed, then the three the fixes edit; without the
	// analysis ahead, the five again.
	if ahead.parsed != 8 || plain.parsed != 10 {
		t.Errorf("%d and %d files parsed, want 8 (the edited ones again) and 10 (all again)", ahead.parsed, plain.parsed)
	}
}

// hidden wraps a processor so that it is not an engine.LocalProcessor.
type hidden struct{ engine.Processor }

func TestRunWithSuppressionsAndPerFileIgnoresFixesAsWithoutTheAnalysisAhead(t *testing.T) {
	tool := func(name, comment string) string {
		return "from mcp.server.fastmcp import FastMCP\nimport anyio\nfrom helpers import work\nmcp = FastMCP('" + name + "')\n\n@mcp.tool()\nasync def t(x: int) -> str:\n    r = await anyio.to_thread.run_sync(work)" + comment + "\n    return str(r)\n"
	}
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"a.py":             tool("a", ""),
		"b.py":             tool("b", "  # mcplint: ignore[MCP101] work takes a millisecond"),
		"c.py":             tool("c", ""),
		"d.py":             tool("d", "  # noqa: MCP104"), // an unused suppression: MCP901, with a fix
		"helpers.py":       "def work(): return 1\n",
	})
	t.Chdir(root)
	rule := []*rules.Rule{rules.Lookup("MCP101"), rules.Lookup("MCP901")}
	procs := func() []engine.Processor {
		return []engine.Processor{&suppress.Processor{}, suppress.NewPerFileIgnores(".", []config.PerFileIgnore{{
			Pattern: config.Item{Value: "c.py"}, Codes: []config.Item{{Value: "MCP101"}}}})}
	}
	fixAll := func(procs []engine.Processor) (string, int64) {
		t.Helper()
		var parsed atomic.Int64
		out, err := Run([]string{"."}, engine.Options{Jobs: 2, Rules: rule, Processors: procs, Parses: &parsed}, Mode{})
		if err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprint(out.Failures)
		for _, f := range out.Files {
			s += fmt.Sprintf("%s fixed %d:\n%s\n", f.Path, f.Fixed, f.New)
		}
		for _, d := range out.Result.Diagnostics {
			s += fmt.Sprintf("%s:%d %s\n", d.Path, d.Start.Line, d.Code)
		}
		return s, parsed.Load()
	}
	p := procs()
	ahead, nAhead := fixAll(p)
	plain, nPlain := fixAll([]engine.Processor{hidden{p[0]}, hidden{p[1]}})
	if ahead != plain {
		t.Errorf("the fixes differ with the analysis made ahead:\n%s\nwithout:\n%s", ahead, plain)
	}
	// a.py and d.py are fixed (MCP101; MCP901 removes the unused noqa and
	// MCP101 is fixed too); b.py's finding is suppressed and c.py's
	// ignored: not fixed, not parsed again.
	if !strings.Contains(ahead, "a.py fixed") || !strings.Contains(ahead, "d.py fixed") || strings.Contains(ahead, "b.py fixed") || strings.Contains(ahead, "c.py fixed") {
		t.Fatalf("fixed:\n%s\nwant a.py and d.py only", ahead)
	}
	if nAhead != 7 || nPlain != 10 {
		t.Errorf("%d and %d files parsed, want 7 (five, then the two edited) and 10 (all again)", nAhead, nPlain)
	}
}

// maggLike is a fastmcp 3 server whose manifest admits only fastmcp 3 and
// whose uv.lock pins it and the mcp it pulls (magg).
var maggLike = map[string]string{
	"pyproject.toml": "[project]\nname = \"agg\"\nversion = \"1.0\"\ndependencies = [\n    \"fastmcp>=3.4,<4\",\n    \"mcp>=1.28\",\n]\n",
	"uv.lock": "version = 1\n\n[[package]]\nname = \"agg\"\nversion = \"1.0\"\nsource = { editable = \".\" }\n\n" +
		"[[package]]\nname = \"fastmcp\"\nversion = \"3.4.5\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n" +
		"[[package]]\nname = \"mcp\"\nversion = \"1.29.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n",
	"agg/__init__.py": "",
	"agg/server.py":   "from fastmcp import FastMCP\n\nmcp = FastMCP(\"agg\")\n\n\n@mcp.tool\nasync def hello() -> str:\n    return \"hi\"\n\n\nif __name__ == \"__main__\":\n    mcp.run()\n",
}

func depRules() []*rules.Rule {
	return []*rules.Rule{rules.Lookup("MCP001"), rules.Lookup("MCP002")}
}

// TestRunMovesToMCP2WithoutTheGuard: with --unsafe-fixes, MCP002 moves the
// manifest to fastmcp>=4,<5 (mcp 2.x) while the uv.lock findings' only
// applicable fix is the respond/cancel guard, which imports
// RequestResponder: mcp 2.x has none, so after re-locking the server would
// not start. The move wins; no guard is written, in this round or a later
// one (the lock still pins 3.4.5 until it is re-locked).
func TestRunMovesToMCP2WithoutTheGuard(t *testing.T) {
	root := testfs.Write(t, maggLike)
	out, err := Run([]string{root}, engine.Options{Rules: depRules()}, Mode{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	moved := false
	for _, f := range out.Files {
		rel, _ := filepath.Rel(root, f.Path)
		files = append(files, filepath.ToSlash(rel))
		if strings.HasSuffix(f.Path, "pyproject.toml") && strings.Contains(string(f.New), "\"fastmcp>=4,<5\"") {
			moved = true
		}
	}
	if !moved || len(out.Files) != 1 {
		t.Errorf("files %v: want pyproject.toml moved to fastmcp>=4,<5 and nothing else (no mcp_respond_guard.py)", files)
	}
}

// TestRunAddsTheGuardWhereNothingMoves: the same project with a manifest
// open above (fastmcp>=3.4, no finding of its own): only the lock is
// reported, nothing moves the project to mcp 2.x, and the guard is written.
func TestRunAddsTheGuardWhereNothingMoves(t *testing.T) {
	files := map[string]string{}
	for k, v := range maggLike {
		files[k] = v
	}
	files["pyproject.toml"] = strings.Replace(files["pyproject.toml"], "fastmcp>=3.4,<4", "fastmcp>=3.4", 1)
	root := testfs.Write(t, files)
	out, err := Run([]string{root}, engine.Options{Rules: depRules()}, Mode{Unsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	guard := false
	for _, f := range out.Files {
		if f.Created && strings.HasSuffix(f.Path, rules.GuardModuleName+".py") {
			guard = true
		}
	}
	if !guard {
		t.Errorf("files %d: want the guard module written", len(out.Files))
	}
}
