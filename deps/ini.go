package deps

import (
	"bytes"
	"strings"
)

// INI files as Python's configparser reads them, as far as mcplint needs:
// setup.cfg (install_requires), and the isort settings of .isort.cfg,
// setup.cfg, tox.ini and .editorconfig. "[section]" headers; "key = value"
// or "key: value" lines (keys lower-cased, as configparser does); indented
// continuation lines that extend the value before them; "#" and ";"
// comment lines. No interpolation.

// iniLine is a line that holds a value: a key line, or an indented
// continuation of the key before it.
type iniLine struct {
	section, key string
	value        string // the text after the separator, or the whole continuation line
	valueAt      int    // offset of value in the source
	cont         bool
}

// lineAt returns where the line that starts at pos ends (before its "\n")
// and where the next one starts.
func lineAt(src []byte, pos int) (end, next int) {
	i := bytes.IndexByte(src[pos:], '\n')
	if i < 0 {
		return len(src), len(src)
	}
	return pos + i, pos + i + 1
}

// scanINI calls fn for every value line of src, and bad for a malformed
// line (an unclosed section header, a line with no separator) with its
// offset. Continuation lines of a malformed key line are skipped.
func scanINI(src []byte, fn func(iniLine), bad func(off int, msg string)) {
	section, key := "", ""
	pos := 0
	for pos < len(src) {
		end, next := lineAt(src, pos)
		line := strings.TrimRight(string(src[pos:end]), "\r")
		lineStart := pos
		pos = next
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		switch {
		case !indented && trimmed[0] == '[':
			if !strings.HasSuffix(trimmed, "]") {
				bad(lineStart, "unclosed section header")
				section, key = "", ""
				continue
			}
			section, key = strings.TrimSpace(trimmed[1:len(trimmed)-1]), ""
		case !indented:
			i := strings.IndexAny(line, "=:")
			if i < 0 {
				bad(lineStart, "expected key = value")
				key = ""
				continue
			}
			key = strings.ToLower(strings.TrimSpace(line[:i]))
			fn(iniLine{section: section, key: key, value: line[i+1:], valueAt: lineStart + i + 1})
		case key != "":
			fn(iniLine{section: section, key: key, value: line, valueAt: lineStart, cont: true})
		}
	}
}

// iniSections returns the values of the keys of the named sections (a
// later one overrides an earlier one), continuation lines joined with
// "\n", trimmed. Malformed lines are skipped.
func iniSections(src []byte, sections ...string) map[string]string {
	want := map[string]bool{}
	for _, s := range sections {
		want[s] = true
	}
	out := map[string]string{}
	scanINI(src, func(l iniLine) {
		if !want[l.section] {
			return
		}
		v := strings.TrimSpace(l.value)
		if l.cont {
			if out[l.key] != "" {
				v = out[l.key] + "\n" + v
			}
		}
		out[l.key] = v
	}, func(int, string) {})
	return out
}
