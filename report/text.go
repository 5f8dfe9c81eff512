package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/redact"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// contextLines is how many lines the code frame shows around a finding.
const contextLines = 2

// maxFrameLines bounds the lines of one code frame (long ranges are elided).
const maxFrameLines = 8

// A source line longer than frameWidth characters is shown as an excerpt of
// frameWidth characters, with "..." where it was cut: from frameLead
// characters before the finding's column on the finding's line, from the
// start on the other lines. A 10 MB line prints about 130 bytes.
const (
	frameWidth = 120
	frameLead  = 40
	ellipsis   = "..."
)

// ANSI styles of the text output.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
	ansiCyan   = "\x1b[36m"
)

type painter bool

func (p painter) paint(style, s string) string {
	if !p {
		return s
	}
	return style + s + ansiReset
}

// Text writes findings in ruff's "full" format:
//
//	server.py:14:15: MCP101 [*] message
//	   |
//	13 |     data = prepare()
//	14 |     await anyio.to_thread.run_sync(work)
//	   |           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ MCP101 error
//	   |
//	   = note: reached from tool handler fetch (server.py:10:11)
//	   = help: add a checkpoint after the call (safe fix)
//
// then a summary with counts, the fixes available and, when some fixes are
// only unsafe, ruff's hint about --unsafe-fixes. With Statistics it writes
// one line per rule instead; with Quiet only the findings.
//
// Findings are written as they are rendered (the output is not built in
// memory first), identical ones once, and at most opts.MaxSame per rule,
// file and message, with a note that counts the rest (Fold).
func Text(w io.Writer, res *engine.Result, opts Options) error {
	p := painter(opts.Color)
	ds := Visible(res.Diagnostics)
	c := Count(ds, opts.Unsafe)
	b := bufio.NewWriter(w)
	if opts.Statistics {
		writeStatistics(b, ds, opts)
	} else {
		lines := map[string]*pyast.LineIndex{}
		for _, s := range Fold(ds, opts.MaxSame) {
			writeDiagnostic(b, res, s.D, opts, p, lines, s.SameNote(), s.MoreNote(opts.MaxSame))
		}
	}
	if !opts.Quiet {
		writeSummary(b, c, NotFollowed(res), opts, p)
	}
	return b.Flush()
}

// sink is where the text output goes: a buffered writer (or a builder).
type sink interface {
	io.Writer
	io.StringWriter
}

// writeDiagnostic writes one finding (the message's headline), its frame,
// the message's notes (rules.Headline), the related locations and fixes,
// then the notes given (those of Fold), then a blank line.
func writeDiagnostic(b sink, res *engine.Result, d *rules.Diagnostic, opts Options, p painter, lines map[string]*pyast.LineIndex, notes ...string) {
	mark := ""
	if ok, _ := Fixable(d, opts.Unsafe); ok {
		mark = "[*] "
	}
	head, why := rules.Headline(d.Message)
	fmt.Fprintf(b, "%s:%d:%d: %s %s%s\n", p.paint(ansiBold, vis(d.Path)), d.Start.Line, d.Start.Column,
		p.paint(ansiBold+severityColor(d.Severity), d.Code), p.paint(ansiCyan, mark), vis(head))
	li := lineIndex(res, d.Path, lines)
	if li != nil {
		writeFrame(b, li, source(res, d.Path), d, p)
	}
	for _, n := range why {
		fmt.Fprintf(b, "   = note: %s\n", vis(n))
	}
	for _, r := range d.Related {
		fmt.Fprintf(b, "   = note: %s (%s:%d:%d)\n", vis(r.Message), vis(r.Path), r.Start.Line, r.Start.Column)
	}
	for _, f := range d.Fixes {
		fmt.Fprintf(b, "   = %s: %s (%s fix)\n", p.paint(ansiBold+ansiCyan, "help"), vis(f.Message), f.Applicability)
	}
	for _, n := range notes {
		if n != "" {
			fmt.Fprintf(b, "   = note: %s\n", n)
		}
	}
	b.WriteString("\n")
}

func severityColor(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return ansiRed
	case rules.SeverityWarning:
		return ansiYellow
	}
	return ansiBlue
}

// writeFrame writes the lines of a finding with carets under its range (on
// its first line) and a few lines of context; src is the file li indexes.
func writeFrame(b sink, li *pyast.LineIndex, src []byte, d *rules.Diagnostic, p painter) {
	first := max(1, d.Start.Line-contextLines)
	endLine := max(d.End.Line, d.Start.Line)
	// A range that ends at column 1 ends on the line before.
	if endLine > d.Start.Line && d.End.Column == 1 {
		endLine--
	}
	last := min(li.Lines(), endLine+contextLines)
	if last > endLine && last == li.Lines() && len(lineBytes(src, li, last)) == 0 {
		last-- // the empty "line" after a final newline
	}
	width := len(fmt.Sprint(last))
	gutter := strings.Repeat(" ", width)
	bar := p.paint(ansiBlue, "|")
	fmt.Fprintf(b, "%s %s\n", gutter, bar)
	for n := first; n <= last; n++ {
		if endLine-d.Start.Line+1 > maxFrameLines && n > d.Start.Line+maxFrameLines/2 && n < endLine-1 {
			if n == d.Start.Line+maxFrameLines/2+1 {
				fmt.Fprintf(b, "%s %s\n", p.paint(ansiBlue, strings.Repeat(".", width)), bar)
			}
			continue
		}
		line := lineBytes(src, li, n)
		at := -1 // the byte of the line where the carets start
		if n == d.Start.Line {
			at = lineByte(line, d.Start.Offset-li.LineStart(n), d.Start.Column)
		}
		lo, hi := clipLine(line, max(at, 0))
		text := string(line[lo:hi])
		fmt.Fprintf(b, "%s %s %s\n", p.paint(ansiBlue, fmt.Sprintf("%*d", width, n)), bar, strings.TrimRight(vis(expandTabs(excerpt(d.Path, line, max(at, 0)))), " "))
		if n != d.Start.Line {
			continue
		}
		lead := 0
		if lo > 0 {
			lead = len(ellipsis)
		}
		startCol := lead + displayWidth(text[:at-lo])
		endCol := lead + displayWidth(text)
		if d.End.Line == d.Start.Line {
			if end := lineByte(line, d.End.Offset-li.LineStart(n), d.End.Column); end < hi {
				endCol = lead + displayWidth(text[:max(end, at)-lo])
			}
		}
		carets := max(1, endCol-startCol)
		label := d.Code + " " + d.Severity.String()
		fmt.Fprintf(b, "%s %s %s%s %s\n", gutter, bar, strings.Repeat(" ", startCol),
			p.paint(ansiBold+severityColor(d.Severity), strings.Repeat("^", carets)), p.paint(ansiBold+severityColor(d.Severity), label))
	}
	fmt.Fprintf(b, "%s %s\n", gutter, bar)
}

// lineBytes returns 1-based line n of src without its line ending (a slice
// of src: a long line is not copied).
func lineBytes(src []byte, li *pyast.LineIndex, n int) []byte {
	if n < 1 || n > li.Lines() {
		return nil
	}
	start, end := li.LineStart(n), len(src)
	if n < li.Lines() {
		end = li.LineStart(n+1) - 1
	}
	if end > len(src) || start > end {
		return nil
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return src[start:end]
}

// lineByte returns the byte of line where a position falls: off (the
// position's offset from the line start) when it is a character boundary
// within the line, else the byte of 1-based column col (characters).
func lineByte(line []byte, off, col int) int {
	if off >= 0 && off <= len(line) && (off == len(line) || utf8.RuneStart(line[off])) {
		return off
	}
	return len(prefixRunes(string(line), col-1))
}

// clipLine returns the bytes [lo, hi) of line that the frame shows: the
// whole line when it has at most frameWidth characters, else frameWidth
// characters starting frameLead characters before byte at (or at the
// start). The work is bounded by the excerpt, not the line.
func clipLine(line []byte, at int) (lo, hi int) {
	// (a character is at most 4 bytes: a longer line has too many)
	if len(line) <= frameWidth || len(line) <= 4*frameWidth && utf8.RuneCount(line) <= frameWidth {
		return 0, len(line)
	}
	lo = at
	for k := 0; k < frameLead && lo > 0; k++ {
		_, size := utf8.DecodeLastRune(line[:lo])
		lo -= size
	}
	hi = lo
	for k := 0; k < frameWidth && hi < len(line); k++ {
		_, size := utf8.DecodeRune(line[hi:])
		hi += size
	}
	return lo, hi
}

// excerpt returns what a frame shows of line (of the file at path) around
// byte at: the line, or the part clipLine keeps with "..." where it was
// cut, with credential-shaped text masked (package redact: Code for a
// Python file, Text for the others). The mask is worked out on up to
// redactMargin more bytes each side, so that a secret the cut splits is
// still recognised; masking keeps the characters' count, so the carets
// computed from the line still line up.
func excerpt(path string, line []byte, at int) string {
	lo, hi := clipLine(line, at)
	wlo, whi := max(0, lo-redactMargin), min(len(line), hi+redactMargin)
	for wlo > 0 && !utf8.RuneStart(line[wlo]) {
		wlo--
	}
	for whi < len(line) && !utf8.RuneStart(line[whi]) {
		whi++
	}
	mask := redact.Text
	if strings.HasSuffix(path, ".py") {
		mask = redact.Code
	}
	window := []rune(mask(string(line[wlo:whi])))
	skip := utf8.RuneCount(line[wlo:lo])
	s := string(window[skip : skip+utf8.RuneCount(line[lo:hi])])
	if lo > 0 {
		s = ellipsis + s
	}
	if hi < len(line) {
		s += ellipsis
	}
	return s
}

// redactMargin is how far around an excerpt the masking looks (a header
// name and its scheme before a token, a token's start before the cut).
const redactMargin = 256

// prefixRunes returns the first n runes of s (all of s when shorter).
func prefixRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// expandTabs replaces tabs by spaces up to the next multiple of 4, as ruff
// does, so that carets line up.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// displayWidth is the width of s in columns as the frame prints it: tabs
// expanded, control characters escaped.
func displayWidth(s string) int { return utf8.RuneCountInString(vis(expandTabs(s))) }

func writeStatistics(b sink, ds []rules.Diagnostic, opts Options) {
	type row struct {
		code, name string
		n, fixable int
	}
	rows := map[string]*row{}
	for i := range ds {
		d := &ds[i]
		r := rows[d.Code]
		if r == nil {
			r = &row{code: d.Code, name: d.Name}
			rows[d.Code] = r
		}
		r.n++
		if ok, _ := Fixable(d, opts.Unsafe); ok {
			r.fixable++
		}
	}
	// Most frequent first, then by code (ruff's order).
	keys := sortedKeys(rows)
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && rows[keys[j]].n > rows[keys[j-1]].n; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	width := 1
	for _, k := range keys {
		width = max(width, len(fmt.Sprint(rows[k].n)))
	}
	for _, k := range keys {
		r := rows[k]
		mark := "[ ]"
		if r.fixable == r.n {
			mark = "[*]"
		} else if r.fixable > 0 {
			mark = "[-]"
		}
		fmt.Fprintf(b, "%*d\t%s\t%s %s\n", width, r.n, r.code, mark, r.name)
	}
}

// NotFollowed counts the calls in handler reach of the run's projects, and
// the registrations whose handler it cannot tell, that the analysis could
// not follow and that could hide a crash
// (engine.ProjectSummary.NotFollowed).
func NotFollowed(res *engine.Result) int {
	n := 0
	for _, p := range res.Projects {
		n += p.NotFollowed()
	}
	return n
}

func unfollowedLine(n int) string {
	verb := "calls"
	if n == 1 {
		verb = "call"
	}
	return fmt.Sprintf("%d %s the analysis could not follow may hide a crash (--verbose lists them)", n, verb)
}

// writeSummary writes the summary: "All checks passed!" only when nothing
// was found and no call that could hide a crash was left unfollowed
// (notFollowed); else the counts, and a line for those calls.
func writeSummary(b sink, c Counts, notFollowed int, opts Options, p painter) {
	o := opts.Outcome
	fixed := 0
	if o != nil {
		fixed = o.Fixed
	}
	switch {
	case c.Total == 0 && fixed == 0 && notFollowed == 0:
		b.WriteString(p.paint(ansiBold, "All checks passed!") + "\n")
	case c.Total == 0 && fixed == 0:
		fmt.Fprintf(b, "No findings, but %s.\n", unfollowedLine(notFollowed))
		notFollowed = 0 // said
	case o != nil:
		fmt.Fprintf(b, "Found %s (%d fixed, %d remaining).\n", plural(c.Total+fixed, "finding"), fixed, c.Total)
		if c.Total > 0 {
			fmt.Fprintf(b, "Remaining: %s.\n", c.breakdown())
		}
	default:
		fmt.Fprintf(b, "Found %s: %s.\n", plural(c.Total, "finding"), c.breakdown())
	}
	if notFollowed > 0 {
		fmt.Fprintf(b, "Also, %s.\n", unfollowedLine(notFollowed))
	}
	if o != nil {
		if len(o.Files) > 0 {
			fmt.Fprintf(b, "Fixed %s in %s.\n", plural(fixed, "finding"), plural(len(o.Files), "file"))
		}
		for _, f := range o.Failures {
			fmt.Fprintf(b, "Fix not applied to %s: %s.\n", vis(f.Path), vis(strings.TrimSuffix(f.Reason, ".")))
		}
	}
	switch {
	case c.Fixable > 0 && c.Hidden > 0:
		fmt.Fprintf(b, "%s %d fixable with %s (%s can be enabled with the `--unsafe-fixes` option).\n",
			p.paint(ansiCyan, "[*]"), c.Fixable, opts.fixWith(), hiddenFixes(c.Hidden))
	case c.Fixable > 0:
		fmt.Fprintf(b, "%s %d fixable with %s.\n", p.paint(ansiCyan, "[*]"), c.Fixable, opts.fixWith())
	case c.Hidden > 0:
		fmt.Fprintf(b, "No fixes available (%s can be enabled with the `--unsafe-fixes` option).\n", hiddenFixes(c.Hidden))
	}
}

func hiddenFixes(n int) string {
	if n == 1 {
		return "1 hidden fix"
	}
	return fmt.Sprintf("%d hidden fixes", n)
}
