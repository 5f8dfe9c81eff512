package pystyle

import "testing"

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
