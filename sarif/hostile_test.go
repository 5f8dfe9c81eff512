package sarif

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Paths and messages with control characters: the log stays valid JSON with
// no raw control character, URIs are percent-escaped (a colon in the first
// segment would read as a scheme) and decode back to the path, and messages
// round-trip.
func TestHostilePaths(t *testing.T) {
	paths := []string{"evil\n::error file=x.py::pwned.py", "term\x1b[2J\x07.py", "bidi\u202eyp.py", "sp ace%/#?.py",
		"nel\u0085line\u2028para\u2029.py", "rtl\u200fmark\u200e\u061c\u2066iso\u2069.py", "del\x7f.py"}
	msg := "invalid \x1b[31mred\n::stop-commands::x \u202eevil\u0085nel\u2028\u200f\u061c\x7f"
	var ds []rules.Diagnostic
	files := map[string]string{}
	for _, p := range paths {
		d := diag(p, server, "MCP101", "anyio.to_thread.run_sync(work, x)", rules.SeverityError)
		d.Message = msg
		ds = append(ds, d)
		files[p] = server
	}
	raw, log := write(t, result(files, ds...), Options{ToolVersion: "test"})
	validate(t, raw)
	// No raw control, bidirectional control or line separator anywhere
	// (issue 29: they reached the log raw), messages and snippets included.
	for _, c := range string(raw) {
		if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 && c <= 0x9f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 ||
			c == 0x2028 || c == 0x2029 || c == 0x200e || c == 0x200f || c == 0x061c {
			t.Fatalf("raw %U in the SARIF log", c)
		}
	}
	if !bytes.Contains(raw, []byte(`\u202eevil\u0085nel\u2028\u200f\u061c\u007f`)) {
		t.Errorf("the message's controls are not JSON escapes:\n%s", raw)
	}
	var rep struct {
		Runs []struct {
			Results []struct {
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &rep); err != nil || log == nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rep.Runs[0].Results {
		// SARIF message text escapes "[" (its link syntax) and ends with
		// a period; the rest is the message as data.
		if r.Message.Text != strings.Replace(msg, "[", `\[`, 1)+"." {
			t.Errorf("message %q does not round-trip", r.Message.Text)
		}
		u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
		if strings.ContainsAny(u, "\n\x1b\x07 #?") {
			t.Errorf("URI %q is not escaped", u)
		}
		p, err := url.PathUnescape(u)
		if err != nil {
			t.Errorf("URI %q: %v", u, err)
		}
		got[p] = true
	}
	for _, p := range paths {
		if !got[p] {
			t.Errorf("no result whose URI decodes to %q (have %v)", p, got)
		}
	}
}

// FuzzURI: whatever a relative path holds, its URI is a relative reference
// with no scheme (a colon or a control character in a name must not turn it
// into one) that decodes back to the path.
func FuzzURI(f *testing.F) {
	for _, s := range []string{"src/server.py", "http:x/a.py", "a b/%41.py", "evil\n::error::x.py", "c:/x.py", "é/日本.py", "?#[]@!$&'()*+,;="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "./") || strings.Contains(p, "\\") || !utf8.ValidString(p) {
			return // absolute paths become file:// URIs; Windows separators are not this test's
		}
		u := URI(p, "")
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatalf("URI(%q) = %q does not parse: %v", p, u, err)
		}
		if parsed.Scheme != "" || parsed.Host != "" || parsed.RawQuery != "" || parsed.Fragment != "" {
			t.Fatalf("URI(%q) = %q reads as scheme %q host %q query %q fragment %q", p, u, parsed.Scheme, parsed.Host, parsed.RawQuery, parsed.Fragment)
		}
		back, err := url.PathUnescape(u)
		if err != nil || back != p {
			t.Fatalf("URI(%q) = %q decodes to %q, %v", p, u, back, err)
		}
	})
}

// FuzzLog writes a SARIF log for a finding whose path, message, file and
// fix come from the fuzzer. The log is valid JSON with no raw
// control character (TestSchemaValid checks the schema on the same
// shapes: strings cannot change it); its URI is a relative reference that decodes back to
// the path; and its fix, applied line by line as a reviewer accepts a
// suggestion, gives what --fix writes (fix.Apply of the same edits).
func FuzzLog(f *testing.F) {
	for _, s := range logSeeds {
		f.Add(s.path, s.msg, s.src, s.ops)
	}
	f.Fuzz(func(t *testing.T, path, msg string, src, ops []byte) { checkLog(t, path, msg, src, ops) })
}

// logSeeds are FuzzLog's seeds, which BenchmarkFuzzLog runs too.
var logSeeds = []struct {
	path, msg string
	src, ops  []byte
}{
	{"src/server.py", "something is wrong [here]", []byte(server), []byte{8, 3, 1, 200, 0, 2}},
	{"evil\n::error file=x.py::pwned.py", "invalid \x1b[31mred\n::stop-commands::x", []byte("a = 1\r\nb = 2\r\n"), []byte{2, 3, 0, 5, 0, 1}},
	{"term\x1b[2J\x07.py", "", []byte("x = 'é😀'\n"), []byte{4, 0, 2, 3, 2, 0}},
	{"a b/%41?#.py", "\\[x](1)", []byte("no final newline"), []byte{0, 0, 1}},
}

// BenchmarkFuzzLog runs FuzzLog's body on its seeds: the cost of one
// execution of the fuzz target (ns/op over the four seeds).
func BenchmarkFuzzLog(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := logSeeds[i%len(logSeeds)]
		checkLog(b, s.path, s.msg, s.src, s.ops)
	}
}

var logTexts = []string{"", "x", "import anyio\n", "    await anyio.lowlevel.checkpoint_if_cancelled()\n", ", abandon_on_cancel=True", "\n"}

// checkLog is FuzzLog's body.
func checkLog(t testing.TB, path, msg string, src, ops []byte) {
	texts := logTexts
	if path == "" || !utf8.ValidString(path) || strings.HasPrefix(path, "/") || strings.HasPrefix(path, "./") || strings.Contains(path, "\\") {
		return // as FuzzURI: absolute paths become file:// URIs
	}
	if len(src) > 1<<12 {
		src = src[:1<<12]
	}
	// Sorted edits that do not overlap, at rune starts.
	var edits []rules.Edit
	pos := 0
	for i := 0; i+3 <= len(ops) && len(edits) < 16; i += 3 {
		start := pos + int(ops[i]%16)
		for start < len(src) && !utf8.RuneStart(src[start]) {
			start++
		}
		if start > len(src) {
			break
		}
		end := start + int(ops[i+1]%8)
		for end < len(src) && !utf8.RuneStart(src[end]) {
			end++
		}
		if end > len(src) {
			end = len(src)
		}
		if end == start && len(edits) > 0 && edits[len(edits)-1].End == start && edits[len(edits)-1].Start == start {
			continue // two insertions at one offset: not a valid plan
		}
		edits = append(edits, rules.Edit{Path: path, Start: start, End: end, New: texts[int(ops[i+2])%len(texts)]})
		pos = end
	}
	li := pyast.NewLineIndex(src)
	at := 0
	if len(edits) > 0 {
		at = edits[0].Start
	}
	d := rules.Diagnostic{Code: "MCP101", Name: "uncancellable-thread-await", Severity: rules.SeverityError, Message: msg,
		Location: rules.Location{Path: path, Start: li.Position(at), End: li.Position(at)}, Anchor: "server.handler"}
	if len(edits) > 0 {
		d.Fixes = []rules.Fix{{Message: "fix it", Applicability: rules.Safe, Edits: edits}}
	}
	var buf bytes.Buffer
	if _, err := Write(&buf, result(map[string]string{path: string(src)}, d), Options{ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	for _, c := range raw {
		if c < 0x20 && c != '\n' {
			t.Fatalf("raw %#x in the SARIF log", c)
		}
	}
	// Unmarshal checks that the whole input is valid JSON before it
	// decodes (json.Valid again would scan the log twice).
	var rd rdLog
	if err := json.Unmarshal(raw, &rd); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, raw)
	}
	if len(rd.Runs) != 1 || len(rd.Runs[0].Results) != 1 {
		t.Fatalf("not one result:\n%s", raw)
	}
	r := rd.Runs[0].Results[0]
	if u := r.Locations[0].PhysicalLocation.ArtifactLocation.URI; func() bool { p, err := url.PathUnescape(u); return err != nil || p != path }() {
		t.Fatalf("URI %q does not decode to %q", u, path)
	}
	// Whole-line suggestions: a file whose lines all end (LF or CRLF)
	// and are UTF-8.
	if len(edits) == 0 || !utf8.Valid(src) || len(src) > 0 && src[len(src)-1] != '\n' || bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r")) {
		return
	}
	if len(r.Fixes) != 1 || len(r.Fixes[0].ArtifactChanges) != 1 {
		t.Fatalf("want one fix on one file:\n%s", raw)
	}
	var sugs []suggestion
	for _, rep := range r.Fixes[0].ArtifactChanges[0].Replacements {
		if rep.InsertedContent == nil || rep.InsertedContent.Text == nil {
			t.Fatalf("a replacement without text: %+v", rep)
		}
		sugs = append(sugs, suggestion{rep.DeletedRegion, *rep.InsertedContent.Text})
	}
	if got, want := applyLines(t, string(src), sugs), string(fix.Apply(src, edits)); got != want {
		t.Fatalf("the SARIF replacements give\n%q\n--fix writes\n%q", got, want)
	}
}
