package report

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcplint/mcplint/internal/escape"
)

// Paths and messages come from the scanned repository (file names, quoted
// excerpts of files), so every renderer escapes them for its format: text
// and the github format's log lines show control characters and terminal
// escapes as visible escapes (escape.Visible); github workflow commands
// escape their data and properties as @actions/core does (escapeData,
// escapeProperty), after the same visible escaping; markdown puts paths in
// code spans no backtick in them can close (mdCode), escapes markup in
// prose (mdText) and HTML in HTML (mdHTML), and fences code with more
// backticks than it holds (mdFence). JSON is escaped by jsonWriter.str
// (encoding/json's bytes passed through escape.JSON, which its tests
// compare), SARIF by encoding/json and escape.JSON: in both, every
// escape.Unsafe rune is a \uXXXX escape, so the values decode unchanged.

// vis is escape.Visible, short for the renderers.
func vis(s string) string { return escape.Visible(s) }

// mdCode returns s as an inline code span: delimited by a run of backticks
// longer than any in s (with a space inside when s starts or ends with a
// backtick), control characters visible. Inside a table cell, pass the
// result through cell.
func mdCode(s string) string {
	s = vis(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s != "" && strings.Trim(s, " ") == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdText escapes a message for markdown prose. The code spans the message
// itself holds (rules write `code` in backticks) are kept; outside them,
// characters that start markup (links, images, emphasis, HTML, entities)
// are backslash-escaped and a backtick with no partner is escaped too.
// Control characters become visible everywhere.
func mdText(s string) string {
	s = vis(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := runLen(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i : end+n])
				i = end + n
				continue
			}
			for k := 0; k < n; k++ {
				b.WriteString("\\`")
			}
			i += n
			continue
		}
		switch c {
		case '\\', '*', '[', ']', '~':
			b.WriteByte('\\')
		case '<', '&':
			// Only where HTML or an entity could start: "<2" and ">=" stay
			// as they are.
			if startsMarkup(s, i) {
				b.WriteByte('\\')
			}
		case '_':
			// An underscore inside a word (to_thread) never starts
			// emphasis; elsewhere it may.
			if !(alnumBefore(s, i) && alnumAfter(s, i+1)) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// runLen is the length of the run of c at s[i:].
func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun finds a run of exactly n backticks at or after from, or -1.
func closingRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := runLen(s, i, '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

func alnumBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func alnumAfter(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// startsMarkup tells whether the '<' or '&' at s[i] could start an HTML
// tag, comment or declaration, or an entity.
func startsMarkup(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	n := s[i+1]
	letter := n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z'
	if s[i] == '<' {
		return letter || n == '/' || n == '!' || n == '?'
	}
	return letter || n == '#'
}

// mdHTML escapes text for an HTML element of the markdown (a <summary>):
// "<" and "&" where they could start markup.
func mdHTML(s string) string {
	s = vis(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '<' && startsMarkup(s, i):
			b.WriteString("&lt;")
		case s[i] == '&' && startsMarkup(s, i):
			b.WriteString("&amp;")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// mdFence returns a code fence longer than any backtick run at the start
// of a line of code (at least three backticks), so no line can close it.
func mdFence(code string) string {
	longest := 0
	for _, line := range strings.Split(code, "\n") {
		line = strings.TrimLeft(line, " ")
		longest = max(longest, runLen(line, 0, '`'))
	}
	return strings.Repeat("`", max(3, longest+1))
}

// visibleLines applies vis to each line of a multi-line text (a diff),
// dropping a CR that ends a line.
func visibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = vis(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}
