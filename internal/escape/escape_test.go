package escape

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"server.py":                        "server.py",
		"a\nb":                             `a\nb`,
		"x\r\n::error ::pwned":             `x\r\n::error ::pwned`,
		"\x1b[2J\x1b]0;title\x07":          `\x1b[2J\x1b]0;title\x07`,
		"del\x7f":                          `del\x7f`,
		"c1\u009b31m":                      `c1\u009b31m`,
		"bidi\u202eyp.txt":                 `bidi\u202eyp.txt`,
		"sep\u2028x":                       `sep\u2028x`,
		"bad\xffutf8":                      `bad\xffutf8`,
		"tab\there":                        `tab\there`,
		"é and 日本 and \\ stay as they are": "é and 日本 and \\ stay as they are",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	if got := VisibleKeepNewlines("a\x1b\nb"); got != "a\\x1b\nb" {
		t.Errorf("VisibleKeepNewlines = %q", got)
	}
}

func TestQuoteIsBounded(t *testing.T) {
	secret := "AWS_SECRET_ACCESS_KEY=" + strings.Repeat("s", 10000) + "\nHOME=/root"
	q := Quote(secret)
	if utf8.RuneCountInString(q) > ExcerptRunes+10 || strings.Contains(q, "\n") || strings.Contains(q, "HOME") {
		t.Fatalf("Quote cites too much: %d runes: %.100s", utf8.RuneCountInString(q), q)
	}
	if !strings.HasSuffix(q, `"...`) {
		t.Errorf("Quote of a long text does not say it was cut: %s", q)
	}
	if got := Quote("mcp>=1\x1b[31m"); got != `"mcp>=1\x1b[31m"` {
		t.Errorf("Quote = %s", got)
	}
	if got := Quote("日本語"); got != `"日本語"` {
		t.Errorf("Quote = %s", got)
	}
	b := Bound(strings.Repeat("x", 5000) + "\x1b")
	if utf8.RuneCountInString(b) > MaxMessage+3 || strings.Contains(b, "\x1b") {
		t.Errorf("Bound = %d runes", utf8.RuneCountInString(b))
	}
}

func FuzzVisible(f *testing.F) {
	for _, s := range []string{"a.py", "a\nb", "\x1b[0m", "\u202e", "\xff\xfe", "日本\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Visible(s)
		if needs(v) {
			t.Fatalf("Visible(%q) = %q still has unsafe text", s, v)
		}
		if !needs(s) && v != s {
			t.Fatalf("Visible changed safe text %q to %q", s, v)
		}
		q := Quote(s)
		if needs(q) || utf8.RuneCountInString(q) > 6*ExcerptRunes+5 {
			t.Fatalf("Quote(%q) = %q", s, q)
		}
	})
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"@server.call_tool(\n    name='x',\n)", 40, "@server.call_tool( name='x', )"},
		{"git+https://example.com/a/very/long/path", 10, "git+https:..."},
		{"héllo wörld", 4, "héll..."},
		{"a\x1bb c", 10, `a\x1bb c`},
	} {
		if got := Line(c.in, c.n); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// JSON leaves no Unsafe rune raw in an encoded document and decodes to the
// same values; a document without one is returned as it is.
func TestJSON(t *testing.T) {
	for _, s := range []string{"plain", "é 😀", "a\u202eb\u0085c\u2028d\u2029e\u200ef\u200fg\u061ch\u2066i\u2069j\x7fk\u009b", "\xff\xfe", "\u202a\u202b\u202c\u202d\u202e\u2067\u2068"} {
		checkJSON(t, s)
	}
	b := []byte(`{"a": "é 😀"}`)
	if got := JSON(b); &got[0] != &b[0] {
		t.Errorf("a document with nothing to escape was copied")
	}
	if got := string(JSON([]byte(`["` + "\u202e" + `", "x` + "\u0085" + `"]`))); got != `["\u202e", "x\u0085"]` {
		t.Errorf("JSON = %s", got)
	}
}

func checkJSON(t *testing.T, s string) {
	t.Helper()
	enc, err := json.Marshal(map[string]string{s: s})
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(enc)
	for _, r := range string(out) {
		if Unsafe(r) {
			t.Fatalf("raw %U in %q", r, out)
		}
	}
	var before, after map[string]string
	if err := json.Unmarshal(enc, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &after); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if len(after) != len(before) {
		t.Errorf("%q decodes to %q, was %q", s, after, before)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%q decodes to %q, was %q", s, after, before)
		}
	}
}

func FuzzJSON(f *testing.F) {
	f.Add("a\u202eb\u0085c")
	f.Add("\xed\xbf\xbf\u2029")
	f.Fuzz(checkJSON)
}
