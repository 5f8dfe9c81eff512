package report

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Paths a hostile repository can hold (git accepts all of them but the
// invalid UTF-8 on some systems) and content a message may quote.
var hostilePaths = []string{
	"evil\n::error file=x.py,line=1::pwned.py",
	"evil\r\n::stop-commands::token.py",
	"term\x1b[2J\x1b]0;title\x07.py",
	"bidi\u202eyp.py",
	"c1\u009b31m.py",
	"md`code`|pipe<img src=x onerror=alert(1)>[l](http://e)*x*.py",
	"bad\xffutf8.py",
	// Bidirectional controls, NEL and the Unicode line and paragraph
	// separators (issue 29: they reached JSON and SARIF raw).
	"nel\u0085line\u2028para\u2029.py",
	"rtl\u200fmark\u200e\u061c\u2066iso\u2069\u202aemb\u202c.py",
	"del\x7f.py",
}

// validPaths are the hostile paths that are valid UTF-8 (encoding/json
// replaces invalid UTF-8, so those do not round-trip).
func validPaths() []string {
	var out []string
	for _, p := range hostilePaths {
		if utf8.ValidString(p) {
			out = append(out, p)
		}
	}
	return out
}

const hostileMessage = "invalid \x1b[31mred\n::error::pwned <script>alert(1)</script> [link](http://e) `unclosed \u202eevil\u0085nel\u2028"

const hostileSource = "```\nimport anyio\nx = \"\x1b[2J```\u202e\"; y = await anyio.to_thread.run_sync(work)\n"

func hostileResult(paths []string) *engine.Result {
	res := &engine.Result{Sources: map[string][]byte{}, Suppressed: map[string]int{}, Dropped: map[string]int{}}
	li := pyast.NewLineIndex([]byte(hostileSource))
	i := strings.Index(hostileSource, "anyio.to_thread")
	for _, p := range paths {
		res.Sources[p] = []byte(hostileSource)
		d := rules.Diagnostic{Code: "MCP101", Name: "test-rule", Severity: rules.SeverityError, Message: hostileMessage,
			Location: rules.Location{Path: p, Start: li.Position(i), End: li.Position(i + 15)}, Anchor: "m.f", Project: p}
		d.Related = []rules.Related{{Location: rules.Location{Path: p, Start: li.Position(0), End: li.Position(1)}, Message: "related " + hostileMessage}}
		d.Fixes = []rules.Fix{{Message: "fix " + hostileMessage, Applicability: rules.Safe,
			Edits: []rules.Edit{{Path: p, Start: i, End: i, New: "```\x1b[0m "}}}}
		res.Diagnostics = append(res.Diagnostics, d)
		res.Projects = append(res.Projects, (&engine.ProjectSummary{Dir: p,
			Handlers: []engine.HandlerSummary{{Path: p, Line: 2, Name: "m.f|`x`", Kind: "tool", Async: true}}}).WithDeps(&deps.Project{Dir: p}))
		res.Paths = append(res.Paths, p)
	}
	return res
}

// printable fails on anything a terminal or a log would act on: control
// characters other than newlines, DEL, C1 controls, bidirectional
// overrides, line separators and invalid UTF-8.
func printable(t *testing.T, format, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 in the output", format)
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 ||
			r == 0x200e || r == 0x200f || r == 0x061c {
			t.Errorf("%s: raw %U in the output:\n%s", format, r, out)
			return
		}
	}
}

func TestHostilePathsText(t *testing.T) {
	res := hostileResult(hostilePaths)
	for _, opts := range []Options{{}, {Color: true}, {Statistics: true}} {
		out := render(t, Text, res, opts)
		if opts.Color {
			out = strings.NewReplacer(ansiReset, "", ansiBold, "", ansiRed, "", ansiYellow, "", ansiBlue, "", ansiCyan, "").Replace(out)
		}
		if opts.Statistics {
			out = strings.ReplaceAll(out, "\t", " ") // ruff's statistics columns
		}
		printable(t, "text", out)
	}
	out := render(t, Text, res, Options{})
	for _, want := range []string{
		`evil\n::error file=x.py,line=1::pwned.py:3:27: MCP101`,
		`term\x1b[2J\x1b]0;title\x07.py:3:27: MCP101`,
		`bad\xffutf8.py:3:27: MCP101`,
		`invalid \x1b[31mred\n::error::pwned`,
		`3 | x = "\x1b[2J` + "```" + `\u202e"; y = await anyio.to_thread.run_sync(work)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text: no %s in:\n%s", want, out)
		}
	}
	// The carets stay under the range once the line is escaped.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "3 | x = ") && i+1 < len(lines) {
			col := strings.Index(l, "anyio.to_thread")
			if c := strings.Index(lines[i+1], "^"); c != col {
				t.Errorf("carets at %d, the range at %d:\n%s\n%s", c, col, l, lines[i+1])
			}
			break
		}
	}
}

func TestHostilePathsGitHub(t *testing.T) {
	res := hostileResult(hostilePaths)
	// One annotation per level: the others go to the overflow log lines.
	out := renderGitHub(t, res, GitHubLimits{PerLevel: 2, PerJob: 2})
	printable(t, "github", out)
	commands := 0
	for _, line := range strings.Split(out, "\n") {
		// The runner trims leading white space before it looks for "::".
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			commands++
			if !strings.HasPrefix(line, "::error file=") {
				t.Errorf("github: a workflow command mcplint did not mean: %q", line)
			}
		}
	}
	if commands != 2 {
		t.Errorf("github: %d workflow commands, want the 2 annotations:\n%s", commands, out)
	}
	// The headline on the list line, the rest on note lines below it: no
	// line starts with "::", and the controls are visible.
	if !strings.Contains(out, "\n- "+`term\x1b[2J\x1b]0;title\x07.py:3:27: error MCP101: invalid \x1b[31mred`+"\n  note: ::error::pwned <script>") {
		t.Errorf("github: the overflow list does not escape:\n%s", out)
	}
	if !strings.Contains(out, "::error file=evil%0A%3A%3Aerror file%3Dx.py%2Cline%3D1%3A%3Apwned.py,") &&
		!strings.Contains(out, `::error file=evil\n%3A%3Aerror file=x.py%2Cline=1%3A%3Apwned.py,`) {
		t.Errorf("github: the file property is not escaped:\n%s", out)
	}
}

func renderGitHub(t *testing.T, res *engine.Result, lim GitHubLimits) string {
	t.Helper()
	var b strings.Builder
	if err := GitHubWithLimits(&b, res, Options{}, lim); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestHostilePathsMarkdown(t *testing.T) {
	res := hostileResult(hostilePaths)
	for _, details := range []int{100, 0} {
		old := MaxMarkdownDetails
		MaxMarkdownDetails = details
		out := render(t, Markdown, res, Options{})
		MaxMarkdownDetails = old
		printable(t, "markdown", out)
		for _, bad := range []string{" <script>", "](http://e)`", "\n::"} {
			if i := strings.Index(out, bad); i >= 0 {
				t.Errorf("markdown: %q unescaped: %q", bad, out[max(0, i-100):i+20])
			}
		}
		for _, want := range []string{
			`\<script>alert(1)\</script> \[link\](http://e) \` + "`unclosed",
			"``md`code`\\|pipe<img src=x onerror=alert(1)>[l](http://e)*x*.py``",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown (details %d): no %s in:\n%s", details, want, out)
			}
		}
		// Every table row keeps its 7 or 4 cells: no pipe from a name splits one.
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "|") {
				continue
			}
			cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
			if cells != 7 && cells != 4 {
				t.Errorf("markdown: a table row with %d cells: %s", cells, line)
			}
		}
		// Fences: no line of code closes its fence early.
		if details > 0 && !strings.Contains(out, "````diff\n") {
			t.Errorf("markdown: the code frame's fence is not longer than the backticks in the code:\n%s", out)
		}
	}
	audit := renderAudit(t, []Audited{{Path: hostilePaths[5], Result: res}, {Path: hostilePaths[0], Result: res}})
	printable(t, "audit markdown", audit)
	if !strings.Contains(audit, "## ``md`code`|pipe<img") || strings.Contains(audit, "\n::error file=x.py") {
		t.Errorf("audit markdown: a repository name is not escaped:\n%s", audit)
	}
}

func renderAudit(t *testing.T, repos []Audited) string {
	t.Helper()
	var b strings.Builder
	if err := AuditMarkdown(&b, repos, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// JSON escapes control characters, bidirectional controls and line
// separators itself (\uXXXX); the paths and messages round-trip exactly.
func TestHostilePathsJSON(t *testing.T) {
	paths := validPaths()
	res := hostileResult(paths)
	out := render(t, JSON, res, Options{})
	printable(t, "json", out)
	var rep JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for i, d := range rep.Diagnostics {
		if d.Path != paths[i] || d.Message != hostileMessage {
			t.Errorf("json: path %q message %q do not round-trip", d.Path, d.Message)
		}
	}
	var b strings.Builder
	if err := AuditJSON(&b, []Audited{{Path: paths[len(paths)-2], Result: res}}, Options{}); err != nil || !json.Valid([]byte(b.String())) {
		t.Errorf("audit json: %v", err)
	}
	printable(t, "audit json", b.String())
}
