package rules

import "strings"

// HeadlineWidth is how many characters a finding's first line says the
// problem in, at most (ruff's messages are short sentences too): the outputs
// people read (the full and concise formats, annotations' titles) show the
// headline, and put the rest of the message in notes below it. A test over
// every rule's messages on the fixtures holds the rules to it.
const HeadlineWidth = 100

// PossiblyLabel starts the message of a finding in code the analysis
// reaches only through a call it could not resolve (possible.go). It is a
// label, as "[*]" is: the headline bound does not count it.
const PossiblyLabel = "possibly reached: "

// Headline splits a diagnostic message into the headline (the problem) and
// the notes (the mechanism, versions, registrations). A rule writes the
// message as "problem: why; why" (split at its first ": " outside
// backquotes, quotes and brackets, and the rest at "; " the same way) when
// it is longer than HeadlineWidth; a shorter line is all headline. A line
// after a newline is a note of its own (a clause a later stage adds, such
// as the engine's). The message itself is unchanged everywhere a program
// reads it (json, SARIF, baselines).
func Headline(msg string) (head string, notes []string) {
	first, rest, _ := strings.Cut(msg, "\n")
	head, notes = splitLine(first)
	if rest != "" {
		for _, n := range strings.Split(rest, "\n") {
			if n = strings.TrimSpace(n); n != "" {
				notes = append(notes, n)
			}
		}
	}
	return head, notes
}

// splitLine splits one line of a message as Headline says.
func splitLine(msg string) (head string, notes []string) {
	if len([]rune(strings.TrimPrefix(msg, PossiblyLabel))) <= HeadlineWidth {
		return msg, nil
	}
	label := 0
	if strings.HasPrefix(msg, PossiblyLabel) {
		label = len(PossiblyLabel)
	}
	i := topLevelIndex(msg[label:], ": ")
	if i <= 0 {
		return msg, nil
	}
	i += label
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
