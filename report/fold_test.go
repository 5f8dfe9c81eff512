package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/memtest"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// repeated returns n findings of one rule and message, one per line of a
// requirements file of n identical lines, then an exact duplicate of the
// first and one finding with another message.
func repeated(n int) *engine.Result {
	src := strings.Repeat("mcp==1.20.0\n", n)
	li := pyast.NewLineIndex([]byte(src))
	var ds []rules.Diagnostic
	for i := 0; i < n; i++ {
		off := i * len("mcp==1.20.0\n")
		ds = append(ds, rules.Diagnostic{Code: "MCP001", Name: "mcp-v1-pin", Severity: rules.SeverityError, Message: "pinned to 1.x",
			Location: rules.Location{Path: "requirements.txt", Start: li.Position(off), End: li.Position(off + 11)}})
	}
	dup := ds[0]
	other := ds[1]
	other.Message = "another message"
	ds = append(ds, dup, other)
	return &engine.Result{Diagnostics: ds, Sources: map[string][]byte{"requirements.txt": []byte(src)}}
}

func TestFold(t *testing.T) {
	res := repeated(10)
	got := Fold(res.Diagnostics, 3)
	// 3 of the 10 same-message findings, the other message; the duplicate
	// merged into the first, 7 folded into the third.
	if len(got) != 4 {
		t.Fatalf("%d shown, want 4", len(got))
	}
	if got[0].Same != 1 || got[0].More != 0 {
		t.Errorf("first: same %d more %d, want 1 0", got[0].Same, got[0].More)
	}
	if got[2].More != 7 || got[2].MoreFirst != 4 || got[2].MoreLast != 10 {
		t.Errorf("third: more %d lines %d-%d, want 7 lines 4-10", got[2].More, got[2].MoreFirst, got[2].MoreLast)
	}
	if got[3].D.Message != "another message" || got[3].More != 0 {
		t.Errorf("last: %+v", got[3])
	}
	// No limit: every finding but the duplicate.
	if all := Fold(res.Diagnostics, 0); len(all) != 11 || all[0].Same != 1 {
		t.Errorf("no limit: %d shown (want 11), first merged %d", len(all), all[0].Same)
	}
	// The same finding at another severity is another finding.
	ds := append([]rules.Diagnostic(nil), res.Diagnostics[:1]...)
	ds = append(ds, ds[0])
	ds[1].Severity = rules.SeverityNote
	if n := len(Fold(ds, 1)); n != 2 {
		t.Errorf("severities merged: %d shown, want 2", n)
	}
}

// The text output shows the first findings, counts the rest in a note, and
// its summary counts every finding.
func TestTextFold(t *testing.T) {
	got := render(t, Text, repeated(4), Options{MaxSame: 2})
	want := `requirements.txt:1:1: MCP001 pinned to 1.x
  |
1 | mcp==1.20.0
  | ^^^^^^^^^^^ MCP001 error
2 | mcp==1.20.0
3 | mcp==1.20.0
  |
   = note: reported 2 times at this place (identical findings are shown once)

requirements.txt:2:1: MCP001 pinned to 1.x
  |
1 | mcp==1.20.0
2 | mcp==1.20.0
  | ^^^^^^^^^^^ MCP001 error
3 | mcp==1.20.0
4 | mcp==1.20.0
  |
   = note: 2 more MCP001 findings in requirements.txt with this message (lines 3-4) not shown: at most 2 per rule, file and message (--max-same-findings; 0 shows all)

requirements.txt:2:1: MCP001 another message
  |
1 | mcp==1.20.0
2 | mcp==1.20.0
  | ^^^^^^^^^^^ MCP001 error
3 | mcp==1.20.0
4 | mcp==1.20.0
  |

Found 6 findings: 6 errors.
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// GitHub: the folded count goes with the annotation, and the last line
// says how many were not shown.
func TestGitHubFold(t *testing.T) {
	out := render(t, GitHub, repeated(5), Options{MaxSame: 2})
	if n := strings.Count(out, "::error "); n != 3 {
		t.Errorf("%d annotations, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "3 more MCP001 findings in requirements.txt with this message (lines 3-5) not shown") {
		t.Errorf("no folded note:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "7 findings") || !strings.Contains(last, "3 not shown") {
		t.Errorf("summary line = %q", last)
	}
}

// Markdown lists the shown findings and a line for the rest.
func TestMarkdownFold(t *testing.T) {
	out := render(t, Markdown, repeated(6), Options{MaxSame: 2})
	if n := strings.Count(out, "**`requirements.txt:"); n != 3 {
		t.Errorf("%d findings detailed, want 3:\n%s", n, out)
	}
	if !strings.Contains(out, "4 more MCP001 findings in requirements.txt with this message (lines 3-6) not shown") {
		t.Errorf("no folded note:\n%s", out)
	}
}

// JSON streams its findings; the bytes are those of encoding the whole
// document (BuildJSON), findings and all, with no HTML escaping.
func TestJSONStreamSameBytes(t *testing.T) {
	d := offload()
	d.Message = "a <b> & c \u2028"
	for _, res := range []*engine.Result{newResult(), newResult(d, unsafeOnly()), repeated(3)} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(BuildJSON(res, Options{ToolVersion: "1.2.3"})); err != nil {
			t.Fatal(err)
		}
		if got := render(t, JSON, res, Options{ToolVersion: "1.2.3"}); got != want.String() {
			t.Errorf("streamed JSON differs:\n%s\nwant:\n%s", got, want.String())
		}
	}
}

// The renderers write as they go: while JSON (every finding), text and
// markdown (MaxSame 0) write several MiB, they hold a small part of it (a copy of
// the findings, not of the output).
func TestRenderersStream(t *testing.T) {
	res := repeated(2000)
	long := strings.Repeat("a long fix message ", 100) // shared by every finding: the input stays small
	for i := range res.Diagnostics {
		res.Diagnostics[i].Message = long
		res.Diagnostics[i].Fixes = []rules.Fix{{Message: long, Applicability: rules.DisplayOnly}}
	}
	for _, c := range []struct {
		name string
		f    Format
	}{{"json", JSON}, {"text", Text}, {"markdown", Markdown}} {
		w := memtest.New()
		if err := c.f(w, res, Options{}); err != nil {
			t.Fatal(err)
		}
		if w.Written < 1<<20 {
			t.Fatalf("%s: only %d bytes written: the test needs more", c.name, w.Written)
		}
		if w.Peak > uint64(w.Written)/4 {
			t.Errorf("%s holds %d bytes while writing %d", c.name, w.Peak, w.Written)
		}
	}
}

// Visible does not copy the findings when none is suppressed (a run with
// 100k findings was copied once per output), and leaves out suppressed ones.
func TestVisibleNoCopy(t *testing.T) {
	res := repeated(3)
	if got := Visible(res.Diagnostics); len(got) != len(res.Diagnostics) || &got[0] != &res.Diagnostics[0] {
		t.Errorf("Visible copied findings that are all visible")
	}
	res.Diagnostics[1].Suppression = &rules.Suppression{}
	got := Visible(res.Diagnostics)
	if len(got) != len(res.Diagnostics)-1 || &got[0] == &res.Diagnostics[0] {
		t.Errorf("Visible kept a suppressed finding or did not copy: %d", len(got))
	}
}
