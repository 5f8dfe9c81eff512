package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// schemaPath is the SARIF 2.1.0 schema kept in testdata (see its README for
// source and licence), so a fresh clone validates with nothing beside it.
func schemaPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("SARIF schema not found: %v", err)
	}
	return p
}

// validate checks a SARIF log against the 2.1.0 schema.
func validate(t *testing.T, log []byte) {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath(t))
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("SARIF fails the 2.1.0 schema: %v\n%s", err, log)
	}
}

// diag makes a diagnostic on the first occurrence of sub in src.
func diag(path, src, code, sub string, sev rules.Severity) rules.Diagnostic {
	li := pyast.NewLineIndex([]byte(src))
	i := strings.Index(src, sub)
	if i < 0 {
		panic("no " + sub)
	}
	return rules.Diagnostic{Code: code, Name: "test-rule", Severity: sev, Message: "something is wrong with " + sub,
		Location: rules.Location{Path: path, Start: li.Position(i), End: li.Position(i + len(sub))}, Anchor: "server.handler"}
}

func result(files map[string]string, ds ...rules.Diagnostic) *engine.Result {
	res := &engine.Result{Sources: map[string][]byte{}, Diagnostics: ds}
	for p, s := range files {
		res.Sources[p] = []byte(s)
	}
	return res
}

const server = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def handler(x: int) -> int:
    label = "héllo 😀 [wörld]"; y = await anyio.to_thread.run_sync(work, x)
    return y
`

func offload(t *testing.T) rules.Diagnostic {
	d := diag("src/server.py", server, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError)
	li := pyast.NewLineIndex([]byte(server))
	h := strings.Index(server, "handler")
	d.Related = []rules.Related{{Location: rules.Location{Path: "src/server.py", Start: li.Position(h), End: li.Position(h + 7)}, Message: "tool handler handler registered here"}}
	ret := strings.Index(server, "    return y")
	imp := strings.Index(server, "from mcp")
	d.Fixes = []rules.Fix{
		{Message: "pass abandon_on_cancel=True", Applicability: rules.Unsafe, Edits: []rules.Edit{{Path: "src/server.py", Start: d.End.Offset - 1, End: d.End.Offset - 1, New: ", abandon_on_cancel=True"}}},
		{Message: "add a checkpoint", Applicability: rules.Safe, Edits: []rules.Edit{
			{Path: "src/server.py", Start: ret, End: ret, New: "    await anyio.lowlevel.checkpoint()\n"},
			{Path: "src/server.py", Start: imp, End: imp, New: "import anyio.lowlevel\n"},
		}},
		{Message: "think about it", Applicability: rules.DisplayOnly},
	}
	return d
}

func write(t *testing.T, res *engine.Result, opts Options) ([]byte, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := Write(&buf, res, opts); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), m
}

func TestSchemaValid(t *testing.T) {
	d := offload(t)
	sup := diag("src/server.py", server, "MCP104", "return y", rules.SeverityWarning)
	sup.Suppression = &rules.Suppression{Location: sup.Location, Justification: "reviewed: returns before any cancel"}
	fileErr := rules.Diagnostic{Code: rules.FileErrorCode, Name: "file-error", Severity: rules.SeverityError, Message: "cannot read: permission denied",
		Location: rules.Location{Path: "src/secret dir/ünreadable.py", Start: pyast.Position{Line: 1, Column: 1, Column16: 1}, End: pyast.Position{Line: 1, Column: 1, Column16: 1}}}
	res := result(map[string]string{"src/server.py": server}, fileErr, d, sup)
	log, m := write(t, res, Options{ToolVersion: "1.2.3", Category: "mcplint-pr"})
	validate(t, log)

	run := m["runs"].([]any)[0].(map[string]any)
	if got := run["automationDetails"].(map[string]any)["id"]; got != "mcplint-pr/" {
		t.Errorf("automationDetails.id = %v", got)
	}
	if run["columnKind"] != "utf16CodeUnits" {
		t.Errorf("columnKind = %v", run["columnKind"])
	}
	driverRules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(driverRules) < len(rules.All()) {
		t.Errorf("%d rules in the driver, want every registered rule (%d)", len(driverRules), len(rules.All()))
	}
	for _, r := range driverRules {
		r := r.(map[string]any)
		help, _ := r["help"].(map[string]any)
		props, _ := r["properties"].(map[string]any)
		if help["text"] == "" || help["markdown"] == "" || props["precision"] == nil || props["problem.severity"] == nil || props["tags"] == nil {
			t.Errorf("rule %v lacks help or properties: %v", r["id"], r)
		}
	}
	results := run["results"].([]any)
	if len(results) != 3 {
		t.Fatalf("%d results, want 3 (suppressed included)", len(results))
	}
	var suppressed int
	for _, r := range results {
		r := r.(map[string]any)
		ruleIdx := int(r["ruleIndex"].(float64))
		if driverRules[ruleIdx].(map[string]any)["id"] != r["ruleId"] {
			t.Errorf("ruleIndex %d does not point at %v", ruleIdx, r["ruleId"])
		}
		if s, ok := r["suppressions"].([]any); ok {
			suppressed++
			s0 := s[0].(map[string]any)
			if s0["kind"] != "inSource" || s0["justification"] != "reviewed: returns before any cancel" {
				t.Errorf("suppression = %v", s0)
			}
		}
	}
	if suppressed != 1 {
		t.Errorf("%d suppressed results, want 1", suppressed)
	}
	// The message links to the related location, escaping the brackets of
	// the message text.
	msg := results[1].(map[string]any)["message"].(map[string]any)["text"].(string)
	if !strings.Contains(msg, "[tool handler handler registered here](1)") {
		t.Errorf("message does not link the related location: %q", msg)
	}
	uri := results[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)["uri"]
	if uri != "src/secret%20dir/%C3%BCnreadable.py" {
		t.Errorf("uri = %v, want percent-escaped", uri)
	}
}

func TestUTF16Columns(t *testing.T) {
	d := offload(t)
	_, m := write(t, result(map[string]string{"src/server.py": server}, d), Options{})
	reg := m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
	line := strings.Split(server, "\n")[8]
	prefix := line[:strings.Index(line, "anyio.to_thread")]
	want := len(utf16.Encode([]rune(prefix))) + 1
	if got := int(reg["startColumn"].(float64)); got != want {
		t.Errorf("startColumn = %d, want %d (UTF-16 code units; runes would give %d)", got, want, len([]rune(prefix))+1)
	}
	wantEnd := want + len(utf16.Encode([]rune("anyio.to_thread.run_sync(work, x)")))
	if got := int(reg["endColumn"].(float64)); got != wantEnd {
		t.Errorf("endColumn = %d, want %d", got, wantEnd)
	}
}

func fingerprints(t *testing.T, src string) map[string]any {
	d := diag("server.py", src, "MCP101", "anyio.to_thread.run_sync(work", rules.SeverityError)
	_, m := write(t, result(map[string]string{"server.py": src}, d), Options{})
	return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["partialFingerprints"].(map[string]any)
}

func TestFingerprintsSurviveInsertedLines(t *testing.T) {
	before := fingerprints(t, server)
	moved := strings.Replace(server, "mcp = FastMCP", "# a comment\n\nLIMIT = 3\nmcp = FastMCP", 1)
	after := fingerprints(t, moved)
	for _, k := range []string{"primaryLocationLineHash", FingerprintKey} {
		if before[k] == nil || before[k] != after[k] {
			t.Errorf("%s changed when lines were inserted above: %v -> %v", k, before[k], after[k])
		}
	}
	changed := fingerprints(t, strings.Replace(server, "run_sync(work, x)", "run_sync(work, x, 1)", 1))
	if changed["primaryLocationLineHash"] == before["primaryLocationLineHash"] {
		t.Errorf("primaryLocationLineHash did not change when the finding's line changed")
	}
	if !strings.HasSuffix(before["primaryLocationLineHash"].(string), ":1") {
		t.Errorf("primaryLocationLineHash %v lacks GitHub's :n occurrence suffix", before["primaryLocationLineHash"])
	}
}

// reviewdogFixes reads the fixes of a SARIF log the way reviewdog's sarif
// parser does (parser/sarif.go): per result, per fix, per artifact change,
// the replacements with a startLine and insertedContent.text; a later fix
// replaces an earlier one's suggestions for the same path; the suggestions
// attach to a result whose location has the same path.
type rdRegion struct {
	StartLine   *int `json:"startLine"`
	StartColumn *int `json:"startColumn"`
	EndLine     *int `json:"endLine"`
	EndColumn   *int `json:"endColumn"`
}

type rdLog struct {
	Runs []struct {
		Results []struct {
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Fixes []struct {
				ArtifactChanges []struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Replacements []struct {
						DeletedRegion   rdRegion `json:"deletedRegion"`
						InsertedContent *struct {
							Text *string `json:"text"`
						} `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type suggestion struct {
	reg  rdRegion
	text string
}

// applyLines applies whole-line suggestions to src as a reviewer would
// accept them: lines startLine..endLine-1 (endColumn 1) are replaced.
func applyLines(t testing.TB, src string, sugs []suggestion) string {
	lines := strings.SplitAfter(src, "\n")
	var out strings.Builder
	next := 1
	for _, s := range sugs {
		if *s.reg.StartColumn != 1 || *s.reg.EndColumn != 1 {
			t.Fatalf("replacement is not whole lines: %+v", s.reg)
		}
		for ; next < *s.reg.StartLine; next++ {
			out.WriteString(lines[next-1])
		}
		out.WriteString(s.text)
		next = *s.reg.EndLine
	}
	for ; next <= len(lines); next++ {
		out.WriteString(lines[next-1])
	}
	return out.String()
}

func TestFixesAsReviewdogReadsThem(t *testing.T) {
	d := offload(t)
	log, _ := write(t, result(map[string]string{"src/server.py": server}, d), Options{})
	var rd rdLog
	if err := json.Unmarshal(log, &rd); err != nil {
		t.Fatal(err)
	}
	r := rd.Runs[0].Results[0]
	if len(r.Fixes) != 1 {
		t.Fatalf("%d fixes, want the one --fix applies (reviewdog keeps only the last per file)", len(r.Fixes))
	}
	bypath := map[string][]suggestion{}
	for _, f := range r.Fixes {
		for _, ch := range f.ArtifactChanges {
			var sugs []suggestion
			for _, rep := range ch.Replacements {
				if rep.DeletedRegion.StartLine == nil || rep.InsertedContent == nil || rep.InsertedContent.Text == nil {
					t.Fatalf("replacement reviewdog would skip: %+v", rep)
				}
				sugs = append(sugs, suggestion{rep.DeletedRegion, *rep.InsertedContent.Text})
			}
			bypath[ch.ArtifactLocation.URI] = sugs
		}
	}
	loc := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
	sugs, ok := bypath[loc]
	if !ok {
		t.Fatalf("no suggestion for the result's own path %s: %v", loc, bypath)
	}
	got := applyLines(t, server, sugs)
	want := string(fix.Apply([]byte(server), fix.Choose(&d, false).Edits))
	if got != want {
		t.Errorf("applying the SARIF replacements gives\n%s\nwant (fix.Apply of the safe fix)\n%s", got, want)
	}
}

func TestLineReplacementsMergeAndEOF(t *testing.T) {
	src := "a = 1\nb = 2\nc = 3" // no final newline
	edits := []rules.Edit{
		{Start: 0, End: 1, New: "x"},                   // line 1
		{Start: 4, End: 5, New: "9"},                   // line 1 again: merged
		{Start: len(src) - 1, End: len(src), New: "7"}, // last line, no newline
		{Start: len(src), End: len(src), New: "\nd = 4"},
	}
	reps := lineReplacements([]byte(src), pyast.NewLineIndex([]byte(src)), edits)
	if len(reps) != 2 {
		t.Fatalf("%d replacements, want 2 (line 1 merged; last line with the insertion at EOF)", len(reps))
	}
	if got := *reps[0].InsertedContent.Text; got != "x = 9\n" {
		t.Errorf("merged line 1 = %q", got)
	}
	if got := *reps[1].InsertedContent.Text; got != "c = 7\nd = 4" {
		t.Errorf("last line = %q", got)
	}
	if r := reps[1].DeletedRegion; *r.StartLine != 3 || *r.EndLine != 3 || *r.EndColumn != 6 {
		t.Errorf("last region = %d:%d-%d:%d", *r.StartLine, *r.StartColumn, *r.EndLine, *r.EndColumn)
	}
	// Deleting a whole line leaves an empty insertedContent.text, not none.
	reps = lineReplacements([]byte("a\nb\n"), pyast.NewLineIndex([]byte("a\nb\n")), []rules.Edit{{Start: 0, End: 2}})
	if len(reps) != 1 || reps[0].InsertedContent == nil || reps[0].InsertedContent.Text == nil || *reps[0].InsertedContent.Text != "" {
		t.Errorf("deletion replacement = %+v", reps)
	}
	// An inserted line ends as --fix writes it, in the file's newline (its
	// first line's), even on a line that ends otherwise (FuzzLog crasher
	// fbd555c072118a1c).
	mixed := []byte("a = 1\r\nb = 2\n")
	edits = []rules.Edit{{Start: 7, End: 7, New: "import anyio\n"}}
	reps = lineReplacements(mixed, pyast.NewLineIndex(mixed), edits)
	if len(reps) != 1 || *reps[0].InsertedContent.Text != "import anyio\r\nb = 2\n" {
		t.Errorf("insertion in a mixed file = %q, want the line as --fix writes it (%q)", *reps[0].InsertedContent.Text, fix.Apply(mixed, edits)[7:])
	}
}

func TestLimits(t *testing.T) {
	src := "x = 1\ny = 2\nz = 3\n"
	res := result(map[string]string{"a.py": src},
		diag("a.py", src, "MCP104", "x = 1", rules.SeverityNote),
		diag("a.py", src, "MCP101", "y = 2", rules.SeverityWarning),
		diag("a.py", src, "MCP102", "z = 3", rules.SeverityError))
	var buf bytes.Buffer
	warnings, err := Write(&buf, res, Options{MaxResults: 2, MaxGzipBytes: 50})
	if err != nil {
		t.Fatal(err)
	}
	validate(t, buf.Bytes())
	if len(warnings) != 2 || !strings.Contains(warnings[0], "1 results omitted") || !strings.Contains(warnings[1], "upload limit") {
		t.Errorf("warnings = %q", warnings)
	}
	var m map[string]any
	json.Unmarshal(buf.Bytes(), &m)
	run := m["runs"].([]any)[0].(map[string]any)
	results := run["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		if r.(map[string]any)["level"] == "note" {
			t.Errorf("the note was kept over more severe results")
		}
	}
	notes := run["invocations"].([]any)[0].(map[string]any)["toolExecutionNotifications"]
	if notes == nil {
		t.Errorf("no toolExecutionNotification about the dropped results")
	}
}

func TestURI(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct{ path, root, want string }{
		{"src/a.py", "", "src/a.py"},
		{"./src/my file#1.py", "", "src/my%20file%231.py"},
		{"dir/ü.py", "", "dir/%C3%BC.py"},
		{filepath.Join(root, "pkg", "a.py"), root, "pkg/a.py"},
		{"/elsewhere/a.py", root, "file:///elsewhere/a.py"},
	} {
		if got := URI(tc.path, tc.root); got != tc.want {
			t.Errorf("URI(%q, %q) = %q, want %q", tc.path, tc.root, got, tc.want)
		}
	}
}

func TestUnwrap(t *testing.T) {
	in := "First line\nof a paragraph.\n\n- item one\n- item two\n\n```python\nx = 1\ny = 2\n```\nTail\nwrapped."
	want := "First line of a paragraph.\n\n- item one\n- item two\n\n```python\nx = 1\ny = 2\n```\nTail wrapped."
	if got := unwrap(in); got != want {
		t.Errorf("unwrap =\n%s\nwant\n%s", got, want)
	}
}
