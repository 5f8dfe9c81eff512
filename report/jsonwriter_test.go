package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
)

// encodingJSON is what --format json wrote before jsonWriter, and what
// jsonWriter must write byte for byte: encoding/json, indented by two
// spaces, without HTML escaping, with a final newline, and every raw
// escape.Unsafe rune escaped by escape.JSON (the mechanism SARIF uses).
func encodingJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(escape.JSON(b.Bytes()))
}

// writeJSON writes r with jsonWriter as JSON writes a report.
func writeJSON(t testing.TB, write func(*jsonWriter)) string {
	t.Helper()
	var b bytes.Buffer
	j := newJSONWriter(&b)
	write(j)
	if err := j.finish(); err != nil {
		t.Fatal(err)
	}
	if len(j.empty) != 0 {
		t.Fatalf("%d objects or arrays left open", len(j.empty))
	}
	return b.String()
}

// firstDiff describes where two outputs part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	around := func(s string) string { return s[min(max(0, i-80), len(s)):min(i+80, len(s))] }
	return fmt.Sprintf("at byte %d (got %d bytes, want %d):\n got: %q\nwant: %q", i, len(got), len(want), around(got), around(want))
}

// The real results of every rule fixture project and example, with the
// options that change the report (unsafe fixes, unreachable code, safe
// versions), stream the bytes encoding/json writes for BuildJSON's
// document, and an audit of them those of its document.
func TestJSONWriterEngineResults(t *testing.T) {
	var roots []string
	for _, pattern := range []string{"../testdata/rules/*/*", "../testdata/examples/*"} {
		dirs, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				roots = append(roots, d)
			}
		}
	}
	if len(roots) < 50 {
		t.Fatalf("only %d fixture projects found", len(roots))
	}
	var audited []Audited
	findings, edits, handlers := 0, 0, 0
	for _, root := range roots {
		res, err := engine.Run([]string{root}, engine.Options{Jobs: 1, ReportUnreachable: true, ShowSafe: true})
		if err != nil {
			t.Fatalf("%s: %v", root, err)
		}
		audited = append(audited, Audited{Path: root, Result: res})
		for _, opts := range []Options{{ToolVersion: "1.2.3"}, {Unsafe: true}} {
			want := encodingJSON(t, BuildJSON(res, opts))
			if got := render(t, JSON, res, opts); got != want {
				t.Fatalf("%s (%+v): JSON differs from encoding/json %s", root, opts, firstDiff(got, want))
			}
		}
		for _, d := range res.Diagnostics {
			findings++
			for _, f := range d.Fixes {
				edits += len(f.Edits)
			}
		}
		for _, p := range res.Projects {
			handlers += len(p.Handlers)
		}
	}
	// The comparison covered findings with fixes and projects with handlers.
	if findings < 100 || edits < 50 || handlers < 50 {
		t.Fatalf("the fixtures gave %d findings, %d edits, %d handlers: too few to compare", findings, edits, handlers)
	}
	var b strings.Builder
	if err := AuditJSON(&b, audited, Options{ToolVersion: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	if want := encodingJSON(t, buildAuditJSON(audited, Options{ToolVersion: "1.2.3"})); b.String() != want {
		t.Fatalf("audit JSON differs from encoding/json %s", firstDiff(b.String(), want))
	}
	t.Logf("%d projects, %d findings, %d edits, %d handlers", len(roots), findings, edits, handlers)
}

// hostileStrings are strings whose escaping is easy to get wrong: every
// byte, invalid UTF-8 of each kind, the line separators JavaScript reads
// as line ends, characters HTML escaping would touch, emoji, empty.
func hostileStrings() []string {
	var every strings.Builder
	for c := 0; c < 256; c++ {
		every.WriteByte(byte(c))
	}
	ss := []string{every.String(), "", "plain", "\u2028", "\u2029", "a\u2028b\u2029c", "😀 emoji \U0001F600", "<b>&amp;</b>",
		`"\`, "\\u0000", "\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x80", "a\xe2\x80\xa8\xe2\x80", "\x7f\u0080\u009f\u00a0",
		"\u202e bidi", "\ufffd", "\ufeffbom", "tab\tnl\ncr\rbs\bff\f", "é", "e\u0301"}
	for c := 0; c < 256; c++ {
		ss = append(ss, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	return ss
}

// hostileReport puts s in every string of a report, map keys included,
// with nil and empty slices and maps, and integers at their limits.
func hostileReport(s string, i int) *JSONReport {
	pos := JSONPosition{Line: i, Column: -i, ColumnUTF16: math.MaxInt, Offset: math.MinInt}
	d := JSONDiagnostic{Code: s, Name: s, Severity: s, Message: s, Path: s, Start: pos, End: JSONPosition{}, Anchor: s, Project: s, Exposure: s, Fixable: i%2 == 0,
		Related: []JSONRelated{{Path: s, Start: pos, End: pos, Message: s}, {}},
		Fixes: []JSONFix{{Message: s, Applicability: s, Edits: []JSONEdit{{Path: s, Start: pos, End: pos, Content: s, Create: true}, {}}},
			{Message: s, Edits: []JSONEdit{}}, {}}}
	empty := JSONDiagnostic{Related: []JSONRelated{}, Fixes: []JSONFix{}}
	var zero JSONDiagnostic // nil slices: null
	p := JSONProject{Dir: s, Versions: map[string]string{s: s, "mcp": s, "": "", "é": s, "\xff": s, "~": s}, Modules: i, Verdict: s,
		Handlers: []JSONHandler{{Name: s, Kind: s, Framework: s, Async: true, Path: s, Line: i}, {}}, Guard: JSONGuard{Path: s, Line: i},
		Sources: []JSONSource{{Path: s, Role: s, Why: s, Decides: []string{s, ""}}, {Decides: []string{}}, {}}, Joined: []string{s, ""}}
	return &JSONReport{SchemaVersion: i, Tool: JSONTool{Name: s, Version: s},
		Diagnostics: []JSONDiagnostic{d, empty, zero},
		Projects:    []JSONProject{p, {Versions: map[string]string{}, Handlers: []JSONHandler{}}, {}},
		Summary: JSONSummary{Findings: i, Errors: -1, ByCode: map[string]int{s: i, "MCP101": 3, s + s: -i}, Suppressed: map[string]int{},
			Dropped: nil, Verdict: s, Fixed: math.MaxInt64, FixedFiles: math.MinInt64}}
}

func checkWriter(t testing.TB, r *JSONReport) {
	t.Helper()
	want := encodingJSON(t, r)
	if got := writeJSON(t, func(j *jsonWriter) { j.report(r) }); got != want {
		t.Fatalf("jsonWriter differs from encoding/json %s", firstDiff(got, want))
	}
	a := &AuditJSONReport{Tool: r.Tool, Repositories: []AuditJSONRepo{{Path: r.Tool.Name, Verdict: r.Summary.Verdict, Report: r}, {}},
		Summary: AuditJSONSummary{Verdicts: r.Summary.ByCode, Worst: r.Tool.Version}}
	want = encodingJSON(t, a)
	if got := writeJSON(t, func(j *jsonWriter) { j.auditReport(a) }); got != want {
		t.Fatalf("audit: jsonWriter differs from encoding/json %s", firstDiff(got, want))
	}
}

func TestJSONWriterHostile(t *testing.T) {
	for i, s := range hostileStrings() {
		checkWriter(t, hostileReport(s, i))
	}
	checkWriter(t, &JSONReport{})                                                           // every slice and map nil
	checkWriter(t, &JSONReport{Diagnostics: []JSONDiagnostic{}, Projects: []JSONProject{}}) // empty
	var nilAudit AuditJSONReport
	if got, want := writeJSON(t, func(j *jsonWriter) { j.auditReport(&nilAudit) }), encodingJSON(t, &nilAudit); got != want {
		t.Fatalf("empty audit differs %s", firstDiff(got, want))
	}
}

// The writer compares equal to encoding/json on whatever the fuzzer puts
// in a report's strings and map keys.
func FuzzJSONWriter(f *testing.F) {
	for i, s := range hostileStrings()[:30] {
		f.Add(s, hostileMessage, i)
	}
	for _, p := range hostilePaths {
		f.Add(p, "\xed\xbf\xbf\u2029", 7)
	}
	f.Fuzz(func(t *testing.T, path, msg string, n int) {
		r := hostileReport(path, n)
		r.Diagnostics[0].Message = msg
		r.Diagnostics[1].Path = msg + path
		r.Projects[0].Versions[msg] = path
		r.Summary.ByCode[msg] = n
		checkWriter(t, r)
	})
}

// benchResult is a run of 10,000 findings with a related location and a
// fix each, and 20 projects of 500 handlers.
func benchResult() *engine.Result {
	d := offload()
	res := newResult()
	res.Diagnostics = nil
	for i := 0; i < 10000; i++ {
		res.Diagnostics = append(res.Diagnostics, d)
	}
	res.Projects = nil
	for i := 0; i < 20; i++ {
		dir := fmt.Sprintf("servers/s%d", i)
		var hs []engine.HandlerSummary
		for h := 0; h < 500; h++ {
			hs = append(hs, engine.HandlerSummary{Path: dir + "/tools.py", Line: h + 1, Name: fmt.Sprintf("tools.handler_%d", h), Kind: "tool", Async: true})
		}
		res.Projects = append(res.Projects, (&engine.ProjectSummary{Dir: dir, Modules: 1, Handlers: hs}).WithDeps(&deps.Project{Dir: dir}))
	}
	return res
}

// BenchmarkJSON writes the report with jsonWriter; BenchmarkJSONEncoding
// encodes BuildJSON's document with encoding/json as JSON did before.
func BenchmarkJSON(b *testing.B) {
	res := benchResult()
	b.ReportAllocs()
	for b.Loop() {
		if err := JSON(io.Discard, res, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJSONEncoding(b *testing.B) {
	res := benchResult()
	b.ReportAllocs()
	for b.Loop() {
		enc := json.NewEncoder(io.Discard)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(BuildJSON(res, Options{})); err != nil {
			b.Fatal(err)
		}
	}
}

// failAfter fails every write once n bytes were written.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// A write that fails is JSON's error (the report is larger than a chunk).
func TestJSONWriteError(t *testing.T) {
	res := benchResult()
	for _, n := range []int{0, jsonChunk / 2, 3 * jsonChunk} {
		if err := JSON(&failAfter{n}, res, Options{}); err == nil || err.Error() != "disk full" {
			t.Errorf("failing after %d bytes: %v, want disk full", n, err)
		}
	}
	if err := AuditJSON(&failAfter{10}, []Audited{{Path: "x", Result: res}}, Options{}); err == nil {
		t.Error("audit: a failed write is not an error")
	}
}
