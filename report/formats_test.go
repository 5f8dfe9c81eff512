package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// engineResults are the engine's results on every rule fixture project and
// example (the same set TestJSONWriterEngineResults reads).
var engineResults = sync.OnceValues(func() ([]*engine.Result, error) {
	var roots []string
	for _, pattern := range []string{"../testdata/rules/*/*", "../testdata/examples/*"} {
		dirs, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				roots = append(roots, d)
			}
		}
	}
	if len(roots) < 50 {
		return nil, fmt.Errorf("only %d fixture projects found", len(roots))
	}
	var out []*engine.Result
	for _, root := range roots {
		res, err := engine.Run([]string{root}, engine.Options{Jobs: 1, ReportUnreachable: true, ShowSafe: true})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", root, err)
		}
		out = append(out, res)
	}
	return out, nil
})

// fixtureResults are engineResults and the hand-made results of this
// package's tests, among them a hostile one.
var fixtureResults = sync.OnceValues(func() ([]*engine.Result, error) {
	rs, err := engineResults()
	if err != nil {
		return nil, err
	}
	return append([]*engine.Result{newResult(), newResult(offload(), unsafeOnly()), hostileResult(hostilePaths)}, rs...), nil
})

func results(t *testing.T) []*engine.Result {
	t.Helper()
	rs, err := fixtureResults()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("testdata", "schemas", name))
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return sch
}

func validateJSON(t *testing.T, sch *jsonschema.Schema, what, out string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, out)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("%s fails its schema: %v\n%s", what, err, out)
	}
}

// The gitlab output passes the Code Quality schema on every fixture, has
// one issue per visible finding and unique fingerprints.
func TestGitLabSchema(t *testing.T) {
	sch := compileSchema(t, "gitlab-codequality.json")
	// The schema is not vacuous: it rejects what GitLab would.
	for _, bad := range []string{`{}`, `[{"description":"x","check_name":"c","fingerprint":"f","severity":"error","location":{"path":"a","lines":{"begin":1}}}]`,
		`[{"description":"x","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"a"}}]`} {
		doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if sch.Validate(doc) == nil {
			t.Fatalf("the schema accepts %s", bad)
		}
	}
	for i, res := range results(t) {
		out := render(t, GitLab, res, Options{})
		validateJSON(t, sch, fmt.Sprintf("gitlab output %d", i), out)
		var issues []GitLabIssue
		if err := json.Unmarshal([]byte(out), &issues); err != nil {
			t.Fatal(err)
		}
		if n := len(Visible(res.Diagnostics)); len(issues) != n {
			t.Fatalf("result %d: %d issues for %d findings", i, len(issues), n)
		}
		seen := map[string]bool{}
		for _, is := range issues {
			if seen[is.Fingerprint] {
				t.Fatalf("result %d: fingerprint %s twice", i, is.Fingerprint)
			}
			seen[is.Fingerprint] = true
		}
	}
}

// A line inserted above a finding keeps its GitLab fingerprint (GitLab
// would otherwise report it fixed and new).
func TestGitLabFingerprintStable(t *testing.T) {
	before := newResult(offload())
	shifted := "# a new first line\n" + server
	d := offload()
	d.Start = diag("server.py", shifted, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError).Start
	d.End = diag("server.py", shifted, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError).End
	after := newResult(d)
	after.Sources["server.py"] = []byte(shifted)
	var a, b []GitLabIssue
	_ = json.Unmarshal([]byte(render(t, GitLab, before, Options{})), &a)
	_ = json.Unmarshal([]byte(render(t, GitLab, after, Options{})), &b)
	if len(a) != 1 || len(b) != 1 || a[0].Fingerprint != b[0].Fingerprint || a[0].Location.Positions.Begin.Line+1 != b[0].Location.Positions.Begin.Line {
		t.Fatalf("fingerprints before and after a line was inserted: %+v, %+v", a, b)
	}
}

// The rdjson output passes the schema, and its suggestions, applied to the
// source as reviewdog applies them (line and byte column, end exclusive),
// make the same file as the edits of the fix --fix would apply.
func TestRDJSONSchemaAndSuggestions(t *testing.T) {
	sch := compileSchema(t, "rdjson.json")
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"diagnostics":[{"location":{"path":"a"}}]}`))
	if sch.Validate(doc) == nil {
		t.Fatal("the schema accepts a diagnostic without a message")
	}
	suggested, unexpressed, unsafeFixes := 0, 0, 0
	for i, res := range results(t) {
		for _, unsafe := range []bool{false, true} {
			out := render(t, RDJSON, res, Options{Unsafe: unsafe})
			validateJSON(t, sch, fmt.Sprintf("rdjson output %d", i), out)
			var got RDResult
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			ds := Visible(res.Diagnostics)
			if len(got.Diagnostics) != len(ds) {
				t.Fatalf("result %d: %d diagnostics for %d findings", i, len(got.Diagnostics), len(ds))
			}
			for k := range ds {
				d, rd := &ds[k], got.Diagnostics[k]
				src := source(res, d.Path)
				if src != nil {
					if off := rdOffset(t, src, rd.Location.Range.Start); off != d.Start.Offset {
						t.Fatalf("result %d, %s at %d: rdjson start is byte %d", i, d.Code, d.Start.Offset, off)
					}
				}
				f := fix.Choose(d, unsafe)
				if len(rd.Suggestions) == 0 {
					if f != nil && src != nil && sameFileEdits(f, d.Path) && !strings.Contains(rd.Message, "```diff\n") {
						t.Fatalf("result %d, %s: the fix %q is not suggested", i, d.Code, f.Message)
					}
					if f != nil && !strings.Contains(rd.Message, "```diff\n") {
						t.Fatalf("result %d, %s: the fix %q is neither a suggestion nor a diff in the message", i, d.Code, f.Message)
					}
					if f != nil {
						unexpressed++
					}
					continue
				}
				suggested++
				if len(rd.Suggestions) != 1 {
					t.Fatalf("result %d, %s: %d suggestions; reviewdog places a comment by the first one only", i, d.Code, len(rd.Suggestions))
				}
				want := applyEdits(src, f.Edits)
				if got := applySuggestion(t, src, rd.Suggestions[0]); !bytes.Equal(got, want) {
					t.Fatalf("result %d, %s: the suggestion makes\n%s\nthe fix makes\n%s", i, d.Code, got, want)
				}
				if f.Applicability != rules.Safe {
					unsafeFixes++
					if !strings.Contains(rd.Message, "The fix is unsafe") {
						t.Fatalf("result %d, %s: the unsafe fix is not said to be unsafe: %q", i, d.Code, rd.Message)
					}
				} else if strings.Contains(rd.Message, "The fix is unsafe") {
					t.Fatalf("result %d, %s: a safe fix said to be unsafe: %q", i, d.Code, rd.Message)
				}
			}
		}
	}
	if suggested < 20 || unexpressed == 0 || unsafeFixes == 0 {
		t.Fatalf("only %d findings with suggestions (%d unsafe) and %d with a diff instead: the test checks too little", suggested, unsafeFixes, unexpressed)
	}
}

// applySuggestion applies a line-based rdjson suggestion as a GitHub review
// applies a ```suggestion block: lines Start.Line to End.Line are replaced
// by the text's lines (none when it is empty), the last line's newline
// kept.
func applySuggestion(t *testing.T, src []byte, s RDSuggestion) []byte {
	t.Helper()
	if s.Range.Start.Column != 0 || s.Range.End.Column != 0 || s.Range.End.Line < s.Range.Start.Line {
		t.Fatalf("not a line-based suggestion: %+v", s.Range)
	}
	start := rdOffset(t, src, RDPosition{Line: s.Range.Start.Line, Column: 1})
	end := rdOffset(t, src, RDPosition{Line: s.Range.End.Line, Column: 1})
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	if end < len(src) && src[end] == '\r' {
		end++
	}
	if end < len(src) && src[end] == '\n' {
		end++
	}
	if s.Text == "" {
		return slices.Concat(src[:start], src[end:])
	}
	nl := lineEnd(src[start:end])
	return slices.Concat(src[:start], []byte(s.Text+nl), src[end:])
}

func sameFileEdits(f *rules.Fix, path string) bool {
	for _, e := range f.Edits {
		if e.Create || e.Path != path {
			return false
		}
	}
	return true
}

// rdOffset turns a reviewdog position (1-based line, 1-based byte column)
// into a byte offset of src.
func rdOffset(t *testing.T, src []byte, p RDPosition) int {
	t.Helper()
	line, off := 1, 0
	for off < len(src) && line < p.Line {
		if src[off] == '\n' || src[off] == '\r' && (off+1 == len(src) || src[off+1] != '\n') {
			line++
		}
		off++
	}
	if line != p.Line {
		t.Fatalf("line %d is past the end", p.Line)
	}
	return off + p.Column - 1
}

// applyEdits applies non-overlapping edits (in any order).
func applyEdits(src []byte, edits []rules.Edit) []byte {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b rules.Edit) int { return a.Start - b.Start })
	var out []byte
	at := 0
	for _, e := range es {
		out = append(append(out, src[at:e.Start]...), e.New...)
		at = e.End
	}
	return append(out, src[at:]...)
}

// xmlNode is an XML element, for checking the JUnit output's structure.
type xmlNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xmlNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n xmlNode) attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// junitElements is the structure of the Jenkins/Ant JUnit schema (the
// xunit plugin's junit-10.xsd) the output uses: the elements each element
// may hold, its required attributes and those that must be counts.
var junitElements = map[string]struct {
	children          []string
	required, numeric []string
}{
	"testsuites": {[]string{"testsuite"}, nil, []string{"tests", "failures", "errors", "disabled"}},
	"testsuite":  {[]string{"properties", "testcase", "system-out", "system-err"}, []string{"name", "tests"}, []string{"tests", "failures", "errors", "skipped", "disabled"}},
	"testcase":   {[]string{"skipped", "error", "failure", "system-out", "system-err"}, []string{"name"}, []string{"assertions"}},
	"failure":    {nil, nil, nil},
}

// checkJUnit checks the structure of a JUnit document and that the counts
// add up; it returns the failures.
func checkJUnit(out string) (failures int, err error) {
	if !strings.HasPrefix(out, xml.Header) {
		return 0, fmt.Errorf("no XML declaration:\n%s", out)
	}
	var root xmlNode
	dec := xml.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&root); err != nil {
		return 0, fmt.Errorf("not XML: %v\n%s", err, out)
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if cd, ok := tok.(xml.CharData); err != nil || !ok || strings.TrimSpace(string(cd)) != "" {
			return 0, fmt.Errorf("more after the root element: %v %v", tok, err)
		}
	}
	if root.XMLName.Local != "testsuites" {
		return 0, fmt.Errorf("root element %s", root.XMLName.Local)
	}
	var walk func(n xmlNode) error
	walk = func(n xmlNode) error {
		spec, ok := junitElements[n.XMLName.Local]
		if !ok {
			return fmt.Errorf("unexpected element %s", n.XMLName.Local)
		}
		for _, a := range spec.required {
			if v, ok := n.attr(a); !ok || v == "" && a == "name" {
				return fmt.Errorf("%s without %s", n.XMLName.Local, a)
			}
		}
		for _, a := range spec.numeric {
			if v, ok := n.attr(a); ok {
				if k, err := strconv.Atoi(v); err != nil || k < 0 {
					return fmt.Errorf("%s %s=%q is not a count", n.XMLName.Local, a, v)
				}
			}
		}
		for _, c := range n.Children {
			if !slices.Contains(spec.children, c.XMLName.Local) {
				return fmt.Errorf("%s inside %s", c.XMLName.Local, n.XMLName.Local)
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return 0, err
	}
	count := func(n xmlNode, attr string) int {
		v, _ := n.attr(attr)
		k, _ := strconv.Atoi(v)
		return k
	}
	tests := 0
	for _, s := range root.Children {
		cases, failed := 0, 0
		for _, c := range s.Children {
			if c.XMLName.Local != "testcase" {
				continue
			}
			cases++
			for _, f := range c.Children {
				if f.XMLName.Local == "failure" {
					failed++
				}
			}
		}
		if count(s, "tests") != cases || count(s, "failures") != failed {
			return 0, fmt.Errorf("testsuite %v counts %d tests, %d failures; holds %d, %d", s.Attrs, count(s, "tests"), count(s, "failures"), cases, failed)
		}
		tests, failures = tests+cases, failures+failed
	}
	if count(root, "tests") != tests || count(root, "failures") != failures {
		return 0, fmt.Errorf("testsuites counts %d tests, %d failures; holds %d, %d", count(root, "tests"), count(root, "failures"), tests, failures)
	}
	return failures, nil
}

// The junit output has the JUnit schema's structure, one failed test case
// per visible finding, and is valid UTF-8 XML even with hostile text.
func TestJUnitStructure(t *testing.T) {
	for i, res := range results(t) {
		out := render(t, JUnit, res, Options{})
		if !utf8.ValidString(out) {
			t.Fatalf("result %d: not UTF-8", i)
		}
		n, err := checkJUnit(out)
		if err != nil {
			t.Fatalf("result %d: %v\n%s", i, err, out)
		}
		if want := len(Visible(res.Diagnostics)); n != want {
			t.Fatalf("result %d: %d failures for %d findings", i, n, want)
		}
	}
	// The checker is not vacuous.
	for _, bad := range []string{
		xml.Header + `<testsuites tests="1" failures="0"><testsuite name="a" tests="1" failures="1"><testcase name="x"><failure/></testcase></testsuite></testsuites>`,
		xml.Header + `<testsuites><testsuite tests="0"></testsuite></testsuites>`,
		xml.Header + `<testsuites><testcase name="x"/></testsuites>`,
	} {
		if _, err := checkJUnit(bad); err == nil {
			t.Errorf("checkJUnit accepts %s", bad)
		}
	}
}

// The concise output is one line a finding with the headline, cut to about
// rules.HeadlineWidth characters, then the summary.
func TestConcise(t *testing.T) {
	for i, res := range results(t) {
		out := render(t, Concise, res, Options{Quiet: true})
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		ds := Visible(res.Diagnostics)
		if out == "" {
			lines = nil
		}
		if len(lines) != len(ds) {
			t.Fatalf("result %d: %d lines for %d findings:\n%s", i, len(lines), len(ds), out)
		}
		for k, l := range lines {
			d := &ds[k]
			prefix := fmt.Sprintf("%s:%d:%d: %s ", vis(d.Path), d.Start.Line, d.Start.Column, d.Code)
			if !strings.HasPrefix(l, prefix) {
				t.Fatalf("result %d: line %q does not start with %q", i, l, prefix)
			}
			msg := strings.TrimPrefix(strings.TrimPrefix(l, prefix), "[*] ")
			if n := utf8.RuneCountInString(msg); n > rules.HeadlineWidth {
				t.Fatalf("result %d: message of %d characters: %s", i, n, msg)
			}
			head, _ := rules.Headline(d.Message)
			if !strings.HasPrefix(vis(head), strings.TrimSuffix(msg, ellipsis)) {
				t.Fatalf("result %d: %q is not the start of the headline %q", i, msg, head)
			}
		}
	}
}

// json-lines holds the json format's diagnostics, one a line.
func TestJSONLines(t *testing.T) {
	for i, res := range results(t) {
		out := render(t, JSONLines, res, Options{})
		want := BuildJSON(res, Options{}).Diagnostics
		var got []JSONDiagnostic
		for _, l := range strings.SplitAfter(out, "\n") {
			if l == "" {
				continue
			}
			if !strings.HasSuffix(l, "\n") || strings.Count(l, "\n") != 1 {
				t.Fatalf("result %d: not one object a line: %q", i, l)
			}
			var d JSONDiagnostic
			if err := json.Unmarshal([]byte(l), &d); err != nil {
				t.Fatalf("result %d: %v: %s", i, err, l)
			}
			got = append(got, d)
		}
		if len(got) != len(want) {
			t.Fatalf("result %d: %d lines, %d diagnostics", i, len(got), len(want))
		}
		for k := range got {
			// (through JSON both: invalid UTF-8 becomes U+FFFD)
			var w JSONDiagnostic
			b, _ := json.Marshal(want[k])
			_ = json.Unmarshal(b, &w)
			a, _ := json.Marshal(got[k])
			b, _ = json.Marshal(w)
			if !bytes.Equal(a, b) {
				t.Fatalf("result %d: line %d is\n%s\nnot\n%s", i, k, a, b)
			}
		}
	}
}

// The new formats print nothing a terminal, a log or a CI page would act
// on, whatever the repository's paths and messages hold.
func TestHostilePathsNewFormats(t *testing.T) {
	res := hostileResult(hostilePaths)
	for name, f := range map[string]Format{"concise": Concise, "json-lines": JSONLines, "gitlab": GitLab, "junit": JUnit, "rdjson": RDJSON} {
		out := render(t, f, res, Options{})
		printable(t, name, out)
		if name == "concise" && strings.Count(out, "\n") != len(hostilePaths)+2 { // + the summary's two lines
			t.Errorf("concise: a hostile path or message broke a line:\n%s", out)
		}
	}
}

// headlineLong are the rules whose messages other work is rewording (issue
// 25: MCP001, MCP101 and MCP105 are being changed elsewhere); every other
// rule's headline on the fixtures says the problem within
// rules.HeadlineWidth characters.
var headlineLong = map[string]bool{"MCP001": true, "MCP101": true, "MCP105": true}

func TestHeadlinesShort(t *testing.T) {
	seen := map[string]int{}
	for _, res := range results(t) {
		for _, d := range res.Diagnostics {
			if d.Message == hostileMessage {
				continue
			}
			seen[d.Code]++
			head, _ := rules.Headline(d.Message)
			if n := utf8.RuneCountInString(head); n > rules.HeadlineWidth && !headlineLong[d.Code] {
				t.Errorf("%s headline of %d characters: %s", d.Code, n, head)
			}
		}
	}
	for _, code := range []string{"MCP002", "MCP102", "MCP103", "MCP104", "MCP106", "MCP107"} {
		if seen[code] == 0 {
			t.Errorf("no %s finding on the fixtures: the test checks nothing for it", code)
		}
	}
}

// An audit of a repository with several projects has a roll-up row and a
// row per project (issue 25: 112 projects were one table cell).
func TestAuditRowPerProject(t *testing.T) {
	res := newResult(offload())
	sub := (&engine.ProjectSummary{Dir: "sub", Modules: 1}).WithDeps(&deps.Project{Dir: "sub"})
	res.Projects = append(res.Projects, sub)
	var b bytes.Buffer
	if err := AuditMarkdown(&b, []Audited{{Path: "mono", Result: res}, {Path: "one", Result: newResult()}}, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| `mono` (2 projects) | – | – | – | 1 | MCP101 ×1 | 0 | **yes** |\n",
		"| ↳ `.` | not declared | not declared | not declared | 1 | MCP101 ×1 | 0 | **yes** |\n",
		"| ↳ `sub` | not declared | not declared | not declared | 0 | none | 0 | unknown |\n",
		"| `one` | not declared | not declared | not declared | 1 | none | 0 | no |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("audit lacks %q:\n%s", want, out)
		}
	}
}

// A project with no handler whose findings make it crash does not read
// "Crashes on cancel: yes (no MCP request handler found)".
func TestMarkdownVerdictWithoutHandlers(t *testing.T) {
	d := diag("requirements.txt", "mcp==1.26.0\n", "MCP001", "mcp==1.26.0", rules.SeverityError)
	res := newResult(d)
	res.Sources["requirements.txt"] = []byte("mcp==1.26.0\n")
	res.Projects[0].Handlers = nil
	out := render(t, Markdown, res, Options{})
	if strings.Contains(out, "**yes** (no MCP request handler found)") || !strings.Contains(out, "Crashes on cancel: **yes** (from its findings below") {
		t.Errorf("verdict and handlers contradict:\n%s", out)
	}
	res.Diagnostics = nil
	if out := render(t, Markdown, res, Options{}); !strings.Contains(out, "Crashes on cancel: **unknown** (no MCP request handler found)") {
		t.Errorf("a project with no handler and no finding:\n%s", out)
	}
}
