package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

const server = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def handler(x: int) -> int:
    s = "héllo 😀"; y = await anyio.to_thread.run_sync(work, x)
    return y
`

func diag(path, src, code, sub string, sev rules.Severity) rules.Diagnostic {
	li := pyast.NewLineIndex([]byte(src))
	i := strings.Index(src, sub)
	if i < 0 {
		panic("no " + sub)
	}
	return rules.Diagnostic{Code: code, Name: "test-rule", Severity: sev, Message: "something is wrong with " + sub,
		Location: rules.Location{Path: path, Start: li.Position(i), End: li.Position(i + len(sub))}, Anchor: "server.handler", Project: "."}
}

func offload() rules.Diagnostic {
	d := diag("server.py", server, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError)
	li := pyast.NewLineIndex([]byte(server))
	h := strings.Index(server, "handler")
	d.Related = []rules.Related{{Location: rules.Location{Path: "server.py", Start: li.Position(h), End: li.Position(h + 7)}, Message: "tool handler handler registered here"}}
	ret := strings.Index(server, "    return y")
	d.Fixes = []rules.Fix{
		{Message: "pass abandon_on_cancel=True", Applicability: rules.Unsafe, Edits: []rules.Edit{{Path: "server.py", Start: d.End.Offset - 1, End: d.End.Offset - 1, New: ", abandon_on_cancel=True"}}},
		{Message: "add a checkpoint", Applicability: rules.Safe, Edits: []rules.Edit{{Path: "server.py", Start: ret, End: ret, New: "    await anyio.lowlevel.checkpoint()\n"}}},
	}
	return d
}

func unsafeOnly() rules.Diagnostic {
	d := diag("server.py", server, "MCP104", "return y", rules.SeverityWarning)
	d.Fixes = []rules.Fix{{Message: "re-raise", Applicability: rules.Unsafe, Edits: []rules.Edit{{Path: "server.py", Start: d.Start.Offset, End: d.End.Offset, New: "raise"}}}}
	return d
}

func newResult(ds ...rules.Diagnostic) *engine.Result {
	return &engine.Result{
		Diagnostics: ds,
		Sources:     map[string][]byte{"server.py": []byte(server)},
		Projects: []*engine.ProjectSummary{(&engine.ProjectSummary{Dir: ".", Modules: 1,
			Handlers: []engine.HandlerSummary{{Path: "server.py", Line: 8, Name: "server.handler", Kind: "tool", Async: true}}}).WithDeps(&deps.Project{Dir: "."})},
		Files: 2, Parsed: 1,
	}
}

func render(t *testing.T, f Format, res *engine.Result, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b, res, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTextFrameOnNonASCIILine(t *testing.T) {
	out := render(t, Text, newResult(offload()), Options{})
	lines := strings.Split(out, "\n")
	var src, carets string
	for i, l := range lines {
		if strings.Contains(l, "anyio.to_thread.run_sync(work, x)") && strings.HasPrefix(strings.TrimSpace(l), "9 |") {
			src, carets = l, lines[i+1]
		}
	}
	if src == "" {
		t.Fatalf("no code frame line:\n%s", out)
	}
	// Carets start under the call, counted in characters (not bytes, not UTF-16).
	col := strings.Index(carets, "^")
	want := len([]rune(src[:strings.Index(src, "anyio.to_thread")]))
	if col != want {
		t.Errorf("carets start at column %d, want %d:\n%s\n%s", col, want, src, carets)
	}
	if n := strings.Count(carets, "^"); n != len("anyio.to_thread.run_sync(work, x)") {
		t.Errorf("%d carets, want %d", n, len("anyio.to_thread.run_sync(work, x)"))
	}
	for _, want := range []string{
		"server.py:9:30: MCP101 [*] something is wrong",
		"= note: tool handler handler registered here (server.py:8:11)",
		"= help: add a checkpoint (safe fix)",
		"Found 1 finding: 1 error.",
		"[*] 1 fixable with the `--fix` option.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colors without Color")
	}
	if !strings.Contains(render(t, Text, newResult(offload()), Options{Color: true}), "\x1b[") {
		t.Errorf("no colors with Color")
	}
}

func TestTextSummaryHints(t *testing.T) {
	out := render(t, Text, newResult(offload(), unsafeOnly()), Options{})
	if !strings.Contains(out, "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).") {
		t.Errorf("no unsafe hint:\n%s", out)
	}
	out = render(t, Text, newResult(unsafeOnly()), Options{})
	if !strings.Contains(out, "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).") {
		t.Errorf("no hidden-only hint:\n%s", out)
	}
	out = render(t, Text, newResult(unsafeOnly()), Options{Unsafe: true})
	if !strings.Contains(out, "[*] 1 fixable") || strings.Contains(out, "hidden") {
		t.Errorf("with --unsafe-fixes:\n%s", out)
	}
	if out := render(t, Text, newResult(), Options{}); out != "All checks passed!\n" {
		t.Errorf("clean = %q", out)
	}
	if out := render(t, Text, newResult(offload()), Options{Quiet: true}); strings.Contains(out, "Found") {
		t.Errorf("quiet prints a summary:\n%s", out)
	}
	sup := offload()
	sup.Suppression = &rules.Suppression{Justification: "ok"}
	if out := render(t, Text, newResult(sup), Options{}); out != "All checks passed!\n" {
		t.Errorf("suppressed finding shown: %q", out)
	}
	out = render(t, Text, newResult(offload(), offload(), unsafeOnly()), Options{Statistics: true, Quiet: true})
	if out != "2\tMCP101\t[*] test-rule\n1\tMCP104\t[ ] test-rule\n" {
		t.Errorf("statistics = %q", out)
	}
}

func TestTextFixOutcome(t *testing.T) {
	o := &fix.Outcome{Fixed: 2, Files: []*fix.FileResult{{Path: "server.py", Fixed: 2}}, Failures: []fix.Failure{{Path: "b.py", Reason: "the fixed file would not parse"}}}
	out := render(t, Text, newResult(unsafeOnly()), Options{Outcome: o})
	for _, want := range []string{"Found 3 findings (2 fixed, 1 remaining).", "Fixed 2 findings in 1 file.", "Fix not applied to b.py: the fixed file would not parse."} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

func TestJSON(t *testing.T) {
	out := render(t, JSON, newResult(offload(), unsafeOnly()), Options{ToolVersion: "1.0.0"})
	var rep JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.SchemaVersion != 1 || rep.Summary.Findings != 2 || rep.Summary.Fixable != 1 || rep.Summary.HiddenFixes != 1 || rep.Summary.Verdict != "yes" {
		t.Errorf("summary = %+v", rep.Summary)
	}
	d := rep.Diagnostics[0]
	if d.Code != "MCP101" || d.Start.Line != 9 || d.Start.Column != 30 || d.Start.ColumnUTF16 != 31 || !d.Fixable {
		t.Errorf("diagnostic = %+v", d)
	}
	e := d.Fixes[1].Edits[0]
	if d.Fixes[1].Applicability != "safe" || e.Start.Line != 10 || e.Start.Column != 1 || e.Content == "" {
		t.Errorf("edit = %+v", e)
	}
	// Every documented key is present, even when empty.
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"schema_version", "tool", "diagnostics", "projects", "summary"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("no %q key", k)
		}
	}
	clean := render(t, JSON, newResult(), Options{})
	if !strings.Contains(clean, `"diagnostics": []`) {
		t.Errorf("empty diagnostics not an array:\n%s", clean)
	}
}

func TestGitHubEscaping(t *testing.T) {
	d := diag("dir,x/a:b.py", server, "MCP101", "anyio.to_thread", rules.SeverityError)
	d.Message = "100% wrong,\nsee: here"
	out := render(t, GitHub, &engine.Result{Diagnostics: []rules.Diagnostic{d}}, Options{})
	want := "::error file=dir%2Cx/a%3Ab.py,line=9,endLine=9,col=31,endColumn=46,title=MCP101 test-rule::100%25 wrong,%0Asee: here\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// Multi-line ranges leave out columns.
	d.End.Line = 10
	out = render(t, GitHub, &engine.Result{Diagnostics: []rules.Diagnostic{d}}, Options{})
	if strings.Contains(out, "col=") {
		t.Errorf("columns on a multi-line annotation: %s", out)
	}
	// Paths relative to the repository root.
	out = render(t, GitHub, &engine.Result{Diagnostics: []rules.Diagnostic{d}}, Options{RepoPath: func(p string) string { return "sub/" + p }})
	if !strings.Contains(out, "file=sub/dir%2Cx") {
		t.Errorf("RepoPath not applied: %s", out)
	}
}

func TestGitHubAnnotationLimits(t *testing.T) {
	var ds []rules.Diagnostic
	src := strings.Repeat("x = 1\n", 40)
	for i := 0; i < 14; i++ {
		for _, sev := range []rules.Severity{rules.SeverityError, rules.SeverityWarning, rules.SeverityNote} {
			d := diag("a.py", src, "MCP101", "x = 1", sev)
			d.Start.Line, d.End.Line = i+1, i+1
			ds = append(ds, d)
		}
	}
	res := &engine.Result{Diagnostics: ds}
	out := render(t, GitHub, res, Options{})
	for _, lvl := range []string{"error", "warning", "notice"} {
		if n := strings.Count(out, "::"+lvl+" "); n != GitHubMaxPerLevel {
			t.Errorf("%d %s annotations, want %d", n, lvl, GitHubMaxPerLevel)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "42 findings") || !strings.Contains(last, "30 annotated, 12 more") || !strings.Contains(last, "step summary") {
		t.Errorf("summary line = %q", last)
	}
	if n := strings.Count(out, "a.py:"); n != 12 {
		t.Errorf("%d findings listed as plain lines, want 12", n)
	}
	// A job budget smaller than the per-level limits: errors first.
	var b bytes.Buffer
	if err := GitHubWithLimits(&b, res, Options{}, GitHubLimits{PerJob: 12}); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	if e, w := strings.Count(out, "::error "), strings.Count(out, "::warning "); e != 10 || w != 2 {
		t.Errorf("with a job budget of 12: %d errors, %d warnings annotated; want 10, 2", e, w)
	}
}

func TestMarkdown(t *testing.T) {
	res := newResult(offload(), unsafeOnly())
	out := render(t, Markdown, res, Options{})
	for _, want := range []string{
		"**Crashes on cancel: yes**",
		"| `.` |",
		"### MCP101 test-rule (1)",
		"**`server.py:9:30`** (error)",
		"> 9 |",
		"Fix (safe): add a checkpoint",
		"+    await anyio.lowlevel.checkpoint()",
		"Fix (unsafe): re-raise",
		"`server.handler` | tool",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	// Verdicts.
	for _, tc := range []struct {
		res  *engine.Result
		want Verdict
	}{
		{newResult(), VerdictNo},
		{newResult(unsafeOnly()), VerdictUnknown},
		{newResult(offload()), VerdictYes},
		{&engine.Result{Projects: []*engine.ProjectSummary{{Dir: "."}}}, VerdictUnknown}, // no handler found
	} {
		if got := Overall(tc.res); got != tc.want {
			t.Errorf("verdict of %d findings = %s, want %s", len(tc.res.Diagnostics), got, tc.want)
		}
	}
	fe := rules.Diagnostic{Code: rules.FileErrorCode, Severity: rules.SeverityError, Location: rules.Location{Path: "x.py"}}
	if got := Overall(newResult(fe)); got != VerdictUnknown {
		t.Errorf("verdict with an unreadable file = %s, want unknown", got)
	}
}

func TestMarkdownDetailLimit(t *testing.T) {
	defer func(n int) { MaxMarkdownDetails = n }(MaxMarkdownDetails)
	MaxMarkdownDetails = 1
	out := render(t, Markdown, newResult(offload(), unsafeOnly()), Options{})
	if strings.Count(out, "```diff") != 1 || !strings.Contains(out, "- `server.py:10:5` warning:") {
		t.Errorf("detail limit not applied:\n%s", out)
	}
}

func TestAudit(t *testing.T) {
	repos := []Audited{{Path: "a", Result: newResult(offload())}, {Path: "b", Result: newResult()}}
	var b bytes.Buffer
	if err := AuditMarkdown(&b, repos, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"**Worst verdict: crashes on cancel: yes** · 2 repositories: 1 yes, 0 unknown, 1 no", "| `a` |", "| 1 | MCP101 ×1 | **yes** |", "| `b` |", "## `a`", "### Project `.`"} {
		if !strings.Contains(out, want) {
			t.Errorf("audit lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := AuditJSON(&b, repos, Options{}); err != nil {
		t.Fatal(err)
	}
	var rep AuditJSONReport
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Worst != "yes" || rep.Summary.Verdicts["no"] != 1 || len(rep.Repositories) != 2 || rep.Repositories[0].Report.Summary.Findings != 1 {
		t.Errorf("audit json = %+v", rep.Summary)
	}
	if Worst(repos[1:]) != VerdictNo {
		t.Errorf("worst of a clean repository = %s", Worst(repos[1:]))
	}
}

// A long source line is shown as a bounded excerpt around the finding's
// column, with "..." where it is cut (issue 14: a 10 MB line printed 10 MB);
// the carets stay under the range, and a context line is cut too.
func TestTextFrameLongLine(t *testing.T) {
	src := "import mcp\n" +
		"DATA = [" + strings.Repeat("1, ", 100_000) + "bad(é), " + strings.Repeat("2, ", 100_000) + "]\n" +
		"MORE = '" + strings.Repeat("😀", 1000) + "'\n"
	li := pyast.NewLineIndex([]byte(src))
	i := strings.Index(src, "bad(é)")
	d := rules.Diagnostic{Code: "MCP000", Name: "test-rule", Severity: rules.SeverityError, Message: "long line",
		Location: rules.Location{Path: "data.py", Start: li.Position(i), End: li.Position(i + len("bad(é)"))}}
	res := &engine.Result{Diagnostics: []rules.Diagnostic{d}, Sources: map[string][]byte{"data.py": []byte(src)}}
	got := render(t, Text, res, Options{Quiet: true})
	want := "data.py:2:300009: MCP000 long line\n" +
		"  |\n" +
		"1 | import mcp\n" +
		"2 | ... " + strings.Repeat("1, ", 13) + "bad(é), " + strings.Repeat("2, ", 24) + "...\n" +
		"  |    " + strings.Repeat(" ", 40) + "^^^^^^ MCP000 error\n" +
		"3 | MORE = '" + strings.Repeat("😀", 112) + "...\n" +
		"  |\n\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if len(got) > 2000 {
		t.Errorf("the frame of a long line is %d bytes", len(got))
	}
}
