package suppress

import (
	"regexp"
	"strings"

	"github.com/mcplint/mcplint/rules"
)

// Directive is one suppression comment:
//
//	# mcplint: ignore[MCP101, MCP104] reason   (this line, or the next when alone on its line)
//	# mcplint: ignore-file[MCP103] reason      (the whole file)
//	# noqa: MCP101                             (this line; other tools' codes are left alone)
//
// A blanket "# noqa" (no codes) is read too, to say that it suppresses
// nothing: it was written for other linters, and honouring it would hide a
// crash under a comment about line length (Blanket).
type Directive struct {
	Path string
	Line int  // 1-based line of the comment
	Own  bool // the comment stands alone on its line: it covers the next line
	File bool // ignore-file: covers the whole file
	Noqa bool // the "# noqa: CODE" form
	// Blanket is a "# noqa" without codes: it suppresses no mcplint
	// finding, and a finding on its line gets a note saying so.
	Blanket bool

	// Start and End span the directive, from its '#' to the end of its reason.
	Start, End int
	Codes      []Code
	Reason     string
	// Other lists the codes of other tools in a noqa comment (kept as they are).
	other []Code
	// commentStart/commentEnd span the whole comment the directive is in.
	commentStart, commentEnd int
	// listStart/listEnd span the code list (inside the brackets, or after "noqa:").
	listStart, listEnd int
}

// Code is one code named by a directive.
type Code struct {
	Text       string // as written
	Rule       string // the canonical rule code, "" when no rule has that code or name
	Start, End int    // byte range of Text
	used       bool
}

var (
	mcplintRE = regexp.MustCompile(`^#\s*mcplint\s*:\s*ignore(-file)?\b`)
	noqaRE    = regexp.MustCompile(`(?i)^#\s*noqa\s*:`)
	blanketRE = regexp.MustCompile(`(?i)^#\s*noqa\b`)
	noqaCode  = regexp.MustCompile(`^[A-Za-z]+[0-9]+`)
	mcpCode   = regexp.MustCompile(`(?i)^MCP[0-9]+$`)
)

// parseDirectives finds the directives in the comment c of src. A comment
// can hold several ("# type: ignore  # mcplint: ignore[MCP101] reason"); each
// starts at a '#' that begins the comment or follows whitespace, and runs to
// the next such '#' or the end of the comment. Malformed mcplint directives
// ("# mcplint: ignore" with no codes) are returned with no codes.
func parseDirectives(src []byte, c comment) []*Directive {
	text := string(src[c.start:c.end])
	var starts []int
	for i := 0; i < len(text); i++ {
		if text[i] == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t') {
			rest := text[i:]
			if mcplintRE.MatchString(rest) || blanketRE.MatchString(rest) {
				starts = append(starts, i)
			}
		}
	}
	var out []*Directive
	for k, i := range starts {
		end := len(text)
		// A later '#' after whitespace ends this directive's reason.
		for j := i + 1; j < len(text); j++ {
			if text[j] == '#' && (text[j-1] == ' ' || text[j-1] == '\t') {
				end = j
				break
			}
		}
		if k+1 < len(starts) && starts[k+1] < end {
			end = starts[k+1]
		}
		body := strings.TrimRight(text[i:end], " \t")
		d := &Directive{Start: c.start + i, End: c.start + i + len(body), commentStart: c.start, commentEnd: c.end}
		if m := mcplintRE.FindStringSubmatchIndex(body); m != nil {
			d.File = m[2] >= 0
			parseBracketList(d, body, m[1])
		} else if m := noqaRE.FindStringIndex(body); m != nil {
			d.Noqa = true
			parseNoqaList(d, body, m[1])
		} else {
			d.Noqa, d.Blanket = true, true
		}
		out = append(out, d)
	}
	return out
}

// parseBracketList reads "[A, B] reason" at body[i:].
func parseBracketList(d *Directive, body string, i int) {
	j := i
	for j < len(body) && (body[j] == ' ' || body[j] == '\t') {
		j++
	}
	if j >= len(body) || body[j] != '[' {
		d.Reason = reasonText(body[i:])
		return
	}
	close := strings.IndexByte(body[j:], ']')
	if close < 0 {
		return // unterminated: no codes
	}
	close += j
	d.listStart, d.listEnd = d.Start+j+1, d.Start+close
	off := j + 1
	for _, part := range strings.Split(body[j+1:close], ",") {
		t := strings.TrimSpace(part)
		if t != "" {
			s := off + strings.Index(part, t)
			d.Codes = append(d.Codes, Code{Text: t, Rule: canonical(t), Start: d.Start + s, End: d.Start + s + len(t)})
		}
		off += len(part) + 1
	}
	d.Reason = reasonText(body[close+1:])
}

// parseNoqaList reads "A, B  C reason" at body[i:] as ruff does: codes
// separated by commas or whitespace, up to the first word that is not a code.
// Only MCP codes are the directive's; the others belong to other tools.
func parseNoqaList(d *Directive, body string, i int) {
	j := i
	first := true
	for {
		k := j
		for k < len(body) && (body[k] == ' ' || body[k] == '\t' || body[k] == ',') {
			k++
		}
		m := noqaCode.FindString(body[k:])
		if m == "" || k+len(m) < len(body) && !strings.ContainsRune(" \t,", rune(body[k+len(m)])) {
			break
		}
		if first {
			d.listStart = d.Start + k
			first = false
		}
		c := Code{Text: m, Start: d.Start + k, End: d.Start + k + len(m)}
		if mcpCode.MatchString(m) {
			c.Rule = canonical(m)
			d.Codes = append(d.Codes, c)
		} else {
			d.other = append(d.other, c)
		}
		j = k + len(m)
		d.listEnd = d.Start + j
	}
	d.Reason = reasonText(body[j:])
}

// reasonText trims the separators people put before a reason.
func reasonText(s string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), ":-–—,;"))
}

// canonical returns the rule code for a code or name, or "".
func canonical(s string) string {
	if r := rules.Lookup(s); r != nil {
		return r.Code
	}
	return ""
}
