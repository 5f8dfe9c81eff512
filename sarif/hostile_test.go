package sarif

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcplint/mcplint/rules"
)

// Paths and messages with control characters: the log stays valid JSON with
// no raw control character, URIs are percent-escaped (a colon in the first
// segment would read as a scheme) and decode back to the path, and messages
// round-trip.
func TestHostilePaths(t *testing.T) {
	paths := []string{"evil\n::error file=x.py::pwned.py", "term\x1b[2J\x07.py", "bidi\u202eyp.py", "sp ace%/#?.py"}
	msg := "invalid \x1b[31mred\n::stop-commands::x"
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
	for _, c := range string(raw) {
		if c < 0x20 && c != '\n' {
			t.Fatalf("raw %U in the SARIF log", c)
		}
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
