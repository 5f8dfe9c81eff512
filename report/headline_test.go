package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/suppress"
	"github.com/rogpeppe/go-internal/txtar"
)

// Every rule's headline, as the rules write it on every fixture project and
// on the repositories of the CLI scripts, is a short sentence of at most
// rules.HeadlineWidth characters; the detail is in the notes (the full
// format prints them below the code frame).
func TestHeadlineBound(t *testing.T) {
	var all []*engine.Result
	rs, err := engineResults()
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, rs...)
	scripts, err := filepath.Glob("../cmd/mcplint/testdata/script/*.txtar")
	if err != nil || len(scripts) < 20 {
		t.Fatalf("only %d CLI scripts found (%v)", len(scripts), err)
	}
	for _, s := range scripts {
		abs, err := filepath.Abs(s)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(s), func(t *testing.T) { all = append(all, scriptResult(t, abs)) })
	}
	longest := map[string]string{}
	for _, res := range all {
		for _, d := range res.Diagnostics {
			if rules.Lookup(d.Code) == nil {
				t.Errorf("%s: unregistered code %s", d.Path, d.Code)
				continue
			}
			head, _ := rules.Headline(d.Message)
			if utf8.RuneCountInString(head) > utf8.RuneCountInString(longest[d.Code]) {
				longest[d.Code] = head
			}
		}
	}
	if len(longest) < len(rules.All())-1 {
		t.Errorf("the fixtures produce findings of only %d rules", len(longest))
	}
	for code, head := range longest {
		n := utf8.RuneCountInString(strings.TrimPrefix(head, rules.PossiblyLabel))
		t.Logf("%s %d %s", code, n, head)
		if n > rules.HeadlineWidth {
			t.Errorf("%s's headline is %d characters (at most %d): %q", code, n, rules.HeadlineWidth, head)
		}
	}
}

// scriptResult runs the engine on the files of one CLI script, from inside
// the folder they are written to (paths in messages are relative, as a user
// running `mcplint check .` sees them).
func scriptResult(t *testing.T, script string) *engine.Result {
	t.Helper()
	ar, err := txtar.ParseFile(script)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range ar.Files {
		p := filepath.FromSlash(f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Every rule on, MCP900 too, and the suppression comments applied (the
	// CLI's first processor) for MCP900 and MCP901's messages.
	all := func(string) bool { return true }
	res, err := engine.Run([]string{"."}, engine.Options{Jobs: 1, ReportUnreachable: true, ShowSafe: true,
		Rules: rules.All(), Processors: []engine.Processor{&suppress.Processor{Enabled: all}}})
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return res
}

// longMessage is a rule's message in the "problem: why; why" form, longer
// than HeadlineWidth, with a hostile workflow command in a note.
const longMessage = "`anyio.to_thread.run_sync` waits for its worker after a cancel: no checkpoint follows before the handler returns; " +
	"100% sure\r::error file=x::injected"

// A GitHub annotation's message is the headline, then each note on a line
// of its own (%0A), escaped as @actions/core escapes it: one workflow
// command a finding, no line of it a command of its own.
func TestGitHubHeadlineThenNotes(t *testing.T) {
	d := diag("server.py", server, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError)
	d.Message = longMessage
	out := render(t, GitHub, &engine.Result{Diagnostics: []rules.Diagnostic{d}}, Options{})
	first, _, _ := strings.Cut(out, "\n")
	_, msg, ok := strings.Cut(first, "title=MCP101 test-rule::")
	if !ok {
		t.Fatalf("no annotation:\n%s", out)
	}
	lines := strings.Split(msg, "%0A")
	want := []string{"`anyio.to_thread.run_sync` waits for its worker after a cancel", "no checkpoint follows before the handler returns"}
	if len(lines) < 3 || lines[0] != want[0] || lines[1] != want[1] || !strings.HasPrefix(lines[2], "100%25 sure") {
		t.Errorf("annotation message lines %q, want %q then the escaped note", lines, want)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") && !strings.HasPrefix(l, "::error file=server.py,") {
			t.Errorf("a line GitHub reads as a command of its own: %q", l)
		}
	}
	// Past the annotation limits: a log line with the headline, the notes below.
	d2 := d
	d2.Message = "another " + longMessage
	var b strings.Builder
	if err := GitHubWithLimits(&b, &engine.Result{Diagnostics: []rules.Diagnostic{d2, d}}, Options{}, GitHubLimits{PerLevel: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "- server.py:9:30: error MCP101: "+want[0]+"\n  note: "+want[1]+"\n") {
		t.Errorf("the plain log line is not headline then notes:\n%s", b.String())
	}
}

// The markdown report shows the headline beside the location and the notes
// folded in a <details> below the excerpt.
func TestMarkdownHeadlineThenNotes(t *testing.T) {
	d := diag("server.py", server, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError)
	d.Message = longMessage
	out := render(t, Markdown, newResult(d), Options{})
	head := "**`server.py:9:30`** (error): `anyio.to_thread.run_sync` waits for its worker after a cancel\n\n```python\n"
	notes := "<details><summary>Why</summary>\n\n- no checkpoint follows before the handler returns\n- 100% sure"
	if !strings.Contains(out, head) || !strings.Contains(out, notes) {
		t.Errorf("the finding is not headline, excerpt, then the notes folded:\n%s", out)
	}
	if strings.Index(out, notes) < strings.Index(out, head) {
		t.Errorf("the notes come before the headline:\n%s", out)
	}
}
