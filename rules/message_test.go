package rules

import (
	"slices"
	"strings"
	"testing"
)

func TestHeadline(t *testing.T) {
	long := "`mcp==1.26.0` admits only mcp 1.x: a handler that returns after a client's cancel crashes the server (AssertionError \"Request: already responded to\"; every 1.x); below 1.27.0 closing the transport crashes"
	for _, tc := range []struct {
		msg   string
		head  string
		notes []string
	}{
		{"syntax error: analysed as far as it parses", "syntax error: analysed as far as it parses", nil},
		{long, "`mcp==1.26.0` admits only mcp 1.x", []string{
			"a handler that returns after a client's cancel crashes the server (AssertionError \"Request: already responded to\"; every 1.x)",
			"below 1.27.0 closing the transport crashes",
		}},
		{"the problem\nwhy it happens\n\nwhich versions", "the problem", []string{"why it happens", "which versions"}},
		// The possibly-reached label is not counted, nor split at.
		{PossiblyLabel + strings.Repeat("y", 95) + "\nwhy", PossiblyLabel + strings.Repeat("y", 95), []string{"why"}},
		{PossiblyLabel + strings.Repeat("y", 95) + ": because", PossiblyLabel + strings.Repeat("y", 95), []string{"because"}},
		{strings.Repeat("x", 130), strings.Repeat("x", 130), nil},
		// A clause a later stage adds on a line of its own is a note; the
		// first line is still split.
		{long + "\nthe project runs only on mcp 1.x", "`mcp==1.26.0` admits only mcp 1.x", []string{
			"a handler that returns after a client's cancel crashes the server (AssertionError \"Request: already responded to\"; every 1.x)",
			"below 1.27.0 closing the transport crashes",
			"the project runs only on mcp 1.x",
		}},
		{"short: line\nnote", "short: line", []string{"note"}},
		{"`a: b` " + strings.Repeat("y", 130), "`a: b` " + strings.Repeat("y", 130), nil},
	} {
		head, notes := Headline(tc.msg)
		if head != tc.head || !slices.Equal(notes, tc.notes) {
			t.Errorf("Headline(%q) = %q, %q; want %q, %q", tc.msg, head, notes, tc.head, tc.notes)
		}
	}
}
