package deps

import (
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Decode reads what pip's auto_decode reads by a byte order mark (UTF-16
// and UTF-32, both byte orders) and leaves anything else as it is.
func TestDecode(t *testing.T) {
	const text = "mcp==1.20.0\r\n# café\n"
	for _, c := range []struct {
		name string
		src  string
	}{
		{"UTF-16", encodeIn(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), text)},
		{"UTF-16", encodeIn(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), text)},
		{"UTF-32", encodeIn(t, utf32.UTF32(utf32.LittleEndian, utf32.UseBOM), text)},
		{"UTF-32", encodeIn(t, utf32.UTF32(utf32.BigEndian, utf32.UseBOM), text)},
	} {
		got, enc := Decode([]byte(c.src))
		if string(got) != text || enc != c.name {
			t.Errorf("Decode(%q) = %q, %q; want %q, %q", c.src, got, enc, text, c.name)
		}
	}
	for _, src := range []string{text, "\ufeff" + text, "\xff not a mark", ""} {
		if got, enc := Decode([]byte(src)); string(got) != src || enc != "" {
			t.Errorf("Decode(%q) = %q, %q; want it unchanged", src, got, enc)
		}
	}
}

func encodeIn(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	out, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
