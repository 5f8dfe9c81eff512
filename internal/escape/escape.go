// Package escape makes text from scanned files safe to print: Visible
// renders control characters, terminal escape sequences, bidirectional
// overrides and invalid UTF-8 as visible escapes (so a file name or a message
// cannot move the cursor, recolour a terminal or start a new line, which in a
// GitHub Actions log would be a workflow command), and Quote quotes a bounded
// excerpt, for messages that cite a file's content.
package escape

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ExcerptRunes is how many characters of a file Quote cites at most.
const ExcerptRunes = 60

// MaxMessage bounds a whole message built from a file's content (Bound).
const MaxMessage = 300

// Quote returns s in Go double quotes, with control characters and other
// non-printable runes escaped, cut to ExcerptRunes characters ("..." after
// the closing quote says it was cut).
func Quote(s string) string {
	cut := false
	if n := runeIndex(s, ExcerptRunes); n < len(s) {
		s, cut = s[:n], true
	}
	q := strconv.Quote(s)
	if cut {
		q += "..."
	}
	return q
}

// Excerpt returns Visible(s) cut to ExcerptRunes characters ("..." says it
// was cut), for citing code without quotes.
func Excerpt(s string) string { return Cut(s, ExcerptRunes) }

// CodeRunes is how many characters of code a rule's message cites at most
// (a with item, a requirement): more than Excerpt, since real ones run
// longer than a quoted token.
const CodeRunes = 120

// Cut returns Visible(s) cut to n characters ("..." says it was cut).
func Cut(s string, n int) string {
	if i := runeIndex(s, n); i < len(s) {
		s = s[:i] + "..."
	}
	return Visible(s)
}

// Line returns s on one line, each run of white space one space, cut as
// Cut cuts it.
func Line(s string, n int) string { return Cut(strings.Join(strings.Fields(s), " "), n) }

// Bound returns Visible(s) cut to MaxMessage characters, for a message that
// may carry content of a file (a parser's error).
func Bound(s string) string {
	if n := runeIndex(s, MaxMessage); n < len(s) {
		s = s[:n] + "..."
	}
	return Visible(s)
}

// runeIndex returns the byte index after the first n runes of s (len(s)
// when s is shorter).
func runeIndex(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// Unsafe tells whether r must not be written as is in any output: C0 and C1
// controls (NEL, U+0085, among them), DEL, bidirectional controls (U+061C,
// U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, which reorder what a
// terminal or a browser shows) and the Unicode line and paragraph
// separators. Visible writes them as Go escapes, JSON as JSON escapes.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// Visible returns s with every unsafe rune written as a Go escape (\n, \t,
// \x1b, \u202e) and every byte of invalid UTF-8 as \xNN. Other text,
// backslashes included, is unchanged.
func Visible(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// VisibleKeepNewlines is Visible but keeps "\n" (a multi-line message whose
// renderer escapes newlines its own way).
func VisibleKeepNewlines(s string) string {
	if !needs(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Visible(l)
	}
	return strings.Join(lines, "\n")
}

func needs(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}

// JSON returns a JSON document as encoding/json writes it (its strings
// valid UTF-8, every control character below U+0020 escaped) with each
// Unsafe rune it still holds raw (DEL, C1 controls, bidirectional controls)
// written as a \uXXXX escape, so that a document that quotes a file name or
// a file's text carries none of them, and decodes to the same values. Such
// a rune can only be inside a string, where the escape means the rune
// itself. b is returned as is when it holds none (the common case).
func JSON(b []byte) []byte {
	i := unsafeJSON(b, 0)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	start := 0
	for ; i >= 0; i = unsafeJSON(b, start) {
		r, size := utf8.DecodeRune(b[i:])
		out = AppendJSONEscape(append(out, b[start:i]...), r)
		start = i + size
	}
	return append(out, b[start:]...)
}

// AppendJSONEscape appends r as a JSON \uXXXX escape (r is below U+10000,
// as every Unsafe rune is).
func AppendJSONEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// unsafeJSON returns the index of the first raw Unsafe rune of b from i on
// that encoding/json leaves raw (DEL and above), or -1.
func unsafeJSON(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && Unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}
