package rules

// Generated code is wrapped to the project's line length the way black (and
// ruff format) would: a call or def that does not fit on its line gets its
// arguments on one indented line between the brackets, and when that line
// does not fit either, one argument a line with a magic trailing comma.

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// defTailRE matches what follows a def's parameters on their line: an
// optional return annotation without brackets or strings, and the colon.
var defTailRE = regexp.MustCompile(`^(->[^#()\[\]'"]*)?:`)

// blackIndent is the indentation black adds inside brackets.
const blackIndent = "    "

// lineWidth is the width black measures: characters, not bytes.
func lineWidth(s string) int { return utf8.RuneCountInString(strings.TrimRight(s, "\r")) }

// formatBracketed lays out head + args + tail (head ends with the opening
// bracket, tail starts with the closing one and may end with a comment or a
// colon) at indent: on one line when it fits width, else split as black
// does. The result has no final newline.
func formatBracketed(indent, head string, args []string, tail string, width int, nl string) string {
	one := indent + head + strings.Join(args, ", ") + tail
	if lineWidth(one) <= width || len(args) == 0 {
		return one
	}
	return indent + head + splitArgs(indent, args, width, nl) + tail
}

// splitArgs returns what goes between the brackets of a split call or def
// whose opening bracket ends a line at indent: the arguments on one line
// one level deeper if that fits, else one a line with a trailing comma.
func splitArgs(indent string, args []string, width int, nl string) string {
	inner := indent + blackIndent
	if body := inner + strings.Join(args, ", "); lineWidth(body) <= width {
		return nl + body + nl + indent
	}
	var b strings.Builder
	for _, a := range args {
		b.WriteString(nl + inner + a + ",")
	}
	return b.String() + nl + indent
}

// wrapArgsEdit returns the edit that re-lays out the argument list args
// (a call's parentheses, or a def's parameters) black's way, with extra appended as a last
// argument ("" for none), when the line the list starts on would otherwise
// exceed the project's line length; headDelta is how many characters other
// edits add before the list on that line. ok is false when the list needs
// no wrapping, or when it cannot be re-laid out safely: comments inside,
// an argument spanning lines, a magic trailing comma (kept as it is), or
// code after the closing parenthesis on its line other than a call of the
// call's result.
func wrapArgsEdit(p *Pass, m *pyast.Module, args *pyast.Node, extra string, headDelta int) (Edit, bool) {
	if args == nil || args.Kind() != "argument_list" && args.Kind() != "parameters" {
		return Edit{}, false
	}
	open, close := int(args.StartByte()), int(args.EndByte())-1
	from := open + 1 // the start of the re-laid-out region
	var texts []string
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() == "comment" {
			// a comment after the opening parenthesis, on its line, stays
			// there (black keeps it); any other comment: no re-layout
			if len(texts) > 0 || pystyle.LineStart(m.Src, int(a.StartByte())) != pystyle.LineStart(m.Src, open) {
				return Edit{}, false
			}
			from = int(a.EndByte())
			continue
		}
		t := m.Text(a)
		if strings.ContainsAny(t, "\r\n") {
			return Edit{}, false
		}
		texts = append(texts, t)
	}
	if kids := pyast.NamedChildren(args); len(texts) > 0 && trailingComma(args, kids[len(kids)-1]) != nil {
		return Edit{}, false
	}
	if extra != "" {
		texts = append(texts, extra)
	}
	if len(texts) == 0 {
		return Edit{}, false
	}
	ls := pystyle.LineStart(m.Src, open)
	eol := pystyle.LineEnd(m.Src, close)
	rest := strings.TrimSpace(string(m.Src[close+1 : eol]))
	if args.Kind() == "parameters" { // def f(...) -> T:  # comment
		rest = strings.TrimSpace(defTailRE.ReplaceAllString(rest, ""))
	}
	head := string(m.Src[ls : open+1])
	tail := string(m.Src[close:eol])
	width := p.widthFor(m)
	indent := head[:len(head)-len(strings.TrimLeft(head, " \t"))]
	// A call's arguments followed by the call of its result on the line
	// (mcp.resource(uri)(handler)) split as black does: the tail stays
	// after the closing parenthesis, on a line of its own.
	// Not with a comment after it: that line keeps its layout.
	called := args.Kind() == "argument_list" && strings.HasPrefix(rest, "(") && !strings.Contains(rest, "#") &&
		lineWidth(indent)+lineWidth(tail) <= width
	if rest != "" && !strings.HasPrefix(rest, "#") && !called {
		return Edit{}, false
	}
	one := lineWidth(head) + headDelta + lineWidth(strings.Join(texts, ", ")) + lineWidth(tail)
	if from == open+1 && one <= width {
		return Edit{}, false
	}
	if from != open+1 { // split already: a comment holds the first line
		kids := pyast.NamedChildren(args)
		end := int(kids[len(kids)-1].EndByte())
		last := lineWidth(string(m.Src[pystyle.LineStart(m.Src, end):end])) + lineWidth(extra) + 2
		if extra == "" || last <= width {
			return Edit{}, false // appending still fits the arguments' line
		}
	}
	nl := pystyle.BreakAt(m.Src, eol)
	if nl == "" {
		nl = pystyle.Newline(m.Src)
	}
	return Edit{Path: m.Path, Start: from, End: close, New: splitArgs(indent, texts, width, nl)}, true
}
