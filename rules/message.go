package rules

import "strings"

// HeadlineWidth is about how many characters a finding's first line says
// the problem in: the outputs people read (the full and concise formats,
// annotations' titles) show the headline, and the full format puts the rest
// of the message in notes below the code frame.
const HeadlineWidth = 120

// Headline splits a diagnostic message into the headline (the problem) and
// the notes (the mechanism, versions, registrations). A rule chooses the
// split by writing the headline, a newline, then each note on its own line.
// A message without a newline and longer than HeadlineWidth is split at its
// first ": " outside backquotes, quotes and brackets (mcplint's messages say
// "problem: why"), and its notes at "; " the same way; a shorter one is all
// headline. The message itself is unchanged everywhere a program reads it
// (json, SARIF, baselines).
func Headline(msg string) (head string, notes []string) {
	if h, rest, ok := strings.Cut(msg, "\n"); ok {
		for _, n := range strings.Split(rest, "\n") {
			if n = strings.TrimSpace(n); n != "" {
				notes = append(notes, n)
			}
		}
		return h, notes
	}
	if len([]rune(msg)) <= HeadlineWidth {
		return msg, nil
	}
	i := topLevelIndex(msg, ": ")
	if i <= 0 {
		return msg, nil
	}
	head, rest := msg[:i], msg[i+2:]
	for {
		j := topLevelIndex(rest, "; ")
		if j < 0 {
			break
		}
		if n := strings.TrimSpace(rest[:j]); n != "" {
			notes = append(notes, n)
		}
		rest = rest[j+2:]
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		notes = append(notes, rest)
	}
	return head, notes
}

// topLevelIndex returns the byte index of the first sep in s that is not
// inside `code`, "quotes" or (parentheses) / [brackets], or -1.
func topLevelIndex(s, sep string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '`' || c == '"':
			quote = c
			continue
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			if depth > 0 {
				depth--
			}
		case depth == 0 && strings.HasPrefix(s[i:], sep):
			return i
		}
	}
	return -1
}
