package pystyle

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// Lines end at "\n", "\r\n" or a lone "\r", as CPython reads them.
func TestLinesInEveryStyle(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		src := []byte("a = 1" + nl + "  b = 2" + nl + "c")
		second := 5 + len(nl)
		if got := LineStart(src, second+3); got != second {
			t.Errorf("%q: LineStart = %d, want %d", nl, got, second)
		}
		if got := LineStart(src, second); got != second {
			t.Errorf("%q: LineStart at a line start = %d", nl, got)
		}
		if got := LineEnd(src, second); got != second+7 || BreakAt(src, got) != nl {
			t.Errorf("%q: LineEnd = %d, break %q", nl, got, BreakAt(src, got))
		}
		if got := LineEnd(src, len(src)-1); got != len(src) || BreakAt(src, got) != "" {
			t.Errorf("%q: last line ends at %d", nl, got)
		}
		if Newline(src) != nl {
			t.Errorf("Newline = %q, want %q", Newline(src), nl)
		}
	}
	// Between the "\r" and the "\n" of a CRLF is not a line start.
	if got := LineStart([]byte("ab\r\ncd"), 3); got != 0 {
		t.Errorf("LineStart inside a CRLF = %d, want 0", got)
	}
	// From between the "\r" and the "\n" (a comment node holds the "\r").
	if got := LineEnd([]byte("ab\r\ncd"), 3); got != 2 {
		t.Errorf("LineEnd inside a CRLF = %d, want 2", got)
	}
	if Newline([]byte("one line")) != "\n" {
		t.Error("a file of one line: want \\n")
	}
}

// With no configured line length, code is wrapped to 88 or to the file's
// own longest line of code, whichever is longer (characters, not bytes);
// comment and string-only lines do not count.
func TestWidthFor(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, c := range []struct {
		s    Style
		src  string
		want int
	}{
		{Style{}, "x = 1\n", 88},
		{Style{}, "x = 1\r\ny = [\"" + long + "\", 1]\r\nz = 2", 111},
		{Style{}, "# " + long + "\n\"\"\"\n" + long + "\n\"\"\"\nx = 1\n", 88},
		{Style{}, "x = 1  # " + long + "\n", 109}, // black would have split nothing; the code line still counts
		{Style{LineLength: 79}, "y = [\"" + long + "\", 1]\n", 79},
	} {
		m, err := pyast.Parse("m.py", "m", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.s.WidthFor(m); got != c.want {
			t.Errorf("WidthFor(%.20q) = %d, want %d", c.src, got, c.want)
		}
	}
}
