package sarif

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

// Identical findings are one result with an occurrenceCount; past MaxSame
// results with the same rule, file and message, a notification counts the
// rest instead of listing them.
func TestFoldedResults(t *testing.T) {
	const line = "mcp==1.20.0\n"
	src := strings.Repeat(line, 6)
	li := pyast.NewLineIndex([]byte(src))
	var ds []rules.Diagnostic
	for i := 0; i < 6; i++ {
		off := i * len(line)
		ds = append(ds, rules.Diagnostic{Code: "MCP001", Name: "mcp-v1-pin", Severity: rules.SeverityError, Message: "pinned to 1.x",
			Location: rules.Location{Path: "requirements.txt", Start: li.Position(off), End: li.Position(off + 11)}})
	}
	ds = append(ds, ds[0])
	res := &engine.Result{Diagnostics: ds, Sources: map[string][]byte{"requirements.txt": []byte(src)}}
	var b bytes.Buffer
	if _, err := Write(&b, res, Options{MaxSame: 2}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				OccurrenceCount int `json:"occurrenceCount"`
			} `json:"results"`
			Invocations []struct {
				Notes []struct {
					Level   string                `json:"level"`
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != 2 || run.Results[0].OccurrenceCount != 2 || run.Results[1].OccurrenceCount != 0 {
		t.Fatalf("results %+v, want 2, the first with occurrenceCount 2", run.Results)
	}
	notes := run.Invocations[0].Notes
	if len(notes) != 1 || !strings.Contains(notes[0].Message.Text, "4 more MCP001 findings in requirements.txt with this message (lines 3-6) not shown") {
		t.Errorf("notifications %+v", notes)
	}
	// 0 lists every result (the duplicate still once).
	b.Reset()
	if _, err := Write(&b, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"ruleId": "MCP001"`); n != 6 {
		t.Errorf("%d results without a limit, want 6", n)
	}
}

// Write streams the results into the log; the bytes are those of encoding
// Build's whole document, with results or without.
func TestWriteStreamSameBytes(t *testing.T) {
	const line = "mcp==1.20.0  # <b> & \"q\" [x]\n"
	src := strings.Repeat(line, 3)
	li := pyast.NewLineIndex([]byte(src))
	var ds []rules.Diagnostic
	for i := 0; i < 3; i++ {
		off := i * len(line)
		ds = append(ds, rules.Diagnostic{Code: "MCP001", Name: "mcp-v1-pin", Severity: rules.Severity(i % 3), Message: `pinned "results": [] <b>`,
			Location: rules.Location{Path: "requirements.txt", Start: li.Position(off), End: li.Position(off + 11)},
			Fixes:    []rules.Fix{{Message: "pin", Applicability: rules.Safe, Edits: []rules.Edit{{Path: "requirements.txt", Start: off, End: off + 11, New: "mcp>=2"}}}}})
	}
	for _, res := range []*engine.Result{
		{Sources: map[string][]byte{}},
		{Diagnostics: ds, Sources: map[string][]byte{"requirements.txt": []byte(src)}},
	} {
		rep, _ := Build(res, Options{ToolVersion: "1.0.0"})
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if _, err := Write(&got, res, Options{ToolVersion: "1.0.0"}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("streamed log differs:\n%s\nwant:\n%s", got.String(), want.String())
		}
	}
}

// Write streams: while it writes a log of several MiB (every result, with
// MaxSame 0), it holds a small part of it.
func TestWriteStreams(t *testing.T) {
	const line = "mcp==1.20.0\n"
	src := strings.Repeat(line, 2000)
	li := pyast.NewLineIndex([]byte(src))
	long := strings.Repeat("a long message ", 400) // shared by every finding: the input stays small
	var ds []rules.Diagnostic
	for i := 0; i < 2000; i++ {
		off := i * len(line)
		ds = append(ds, rules.Diagnostic{Code: "MCP001", Name: "mcp-v1-pin", Severity: rules.SeverityError, Message: long,
			Location: rules.Location{Path: "requirements.txt", Start: li.Position(off), End: li.Position(off + 11)}})
	}
	res := &engine.Result{Diagnostics: ds, Sources: map[string][]byte{"requirements.txt": []byte(src)}}
	w := memtest.New()
	if _, err := Write(w, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if w.Written < 2<<20 {
		t.Fatalf("only %d bytes written: the test needs more", w.Written)
	}
	if w.Peak > uint64(w.Written)/4 {
		t.Errorf("Write holds %d bytes while writing %d", w.Peak, w.Written)
	}
}
