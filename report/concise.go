package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// Concise writes one line a finding, ruff's concise format:
//
//	server.py:14:15: MCP101 [*] `anyio.to_thread.run_sync` waits for its worker after a cancel
//
// The message is the headline (rules.Headline), cut to about
// rules.HeadlineWidth characters at a word; the notes, code frame and fixes
// are the full format's. Every finding gets its line (an editor's
// errorformat or a grep reads them: nothing is folded), then the full
// format's summary unless Quiet.
func Concise(w io.Writer, res *engine.Result, opts Options) error {
	p := painter(opts.Color)
	ds := Visible(res.Diagnostics)
	b := bufio.NewWriter(w)
	if opts.Statistics {
		writeStatistics(b, ds, opts)
	} else {
		for i := range ds {
			d := &ds[i]
			mark := ""
			if ok, _ := Fixable(d, opts.Unsafe); ok {
				mark = "[*] "
			}
			head, _ := rules.Headline(d.Message)
			fmt.Fprintf(b, "%s:%d:%d: %s %s%s\n", p.paint(ansiBold, vis(d.Path)), d.Start.Line, d.Start.Column,
				p.paint(ansiBold+severityColor(d.Severity), d.Code), p.paint(ansiCyan, mark), vis(cutWords(head, rules.HeadlineWidth)))
		}
	}
	if !opts.Quiet {
		writeSummary(b, Count(ds, opts.Unsafe), NotFollowed(res), opts, p)
	}
	return b.Flush()
}

// cutWords returns s when it has at most n characters, else its longest
// prefix of whole words within n characters followed by "...".
func cutWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := prefixRunes(s, n-len(ellipsis))
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + ellipsis
}
