package report

import (
	"os"
	"path/filepath"
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
		n := utf8.RuneCountInString(head)
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
