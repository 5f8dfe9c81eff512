package report

import (
	"bufio"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// jsonWriter writes the JSON report's types straight into a bufio.Writer,
// byte for byte as encoding/json's Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) writes them: keys in struct order, map keys sorted,
// "[]" and "{}" for empty slices and maps, null for nil ones, two spaces per level.
// It exists because encoding/json encodes through reflection and then
// indents in a second pass over a growing buffer, which was half of a warm
// run's CPU on a large tree; goccy/go-json, the fast drop-in, writes
// different bytes (\u0008 for \b, map keys of non-ASCII strings in another
// order). TestJSONWriterSameBytes and FuzzJSONWriter compare it with
// encoding/json.
type jsonWriter struct {
	w *bufio.Writer
	// empty holds, per open object or array, whether nothing was written
	// in it yet (it closes on the same line then).
	empty []bool
	num   [20]byte
}

func (j *jsonWriter) open(c byte) {
	j.w.WriteByte(c)
	j.empty = append(j.empty, true)
}

func (j *jsonWriter) close(c byte) {
	n := len(j.empty) - 1
	if !j.empty[n] {
		j.newline(n)
	}
	j.empty = j.empty[:n]
	j.w.WriteByte(c)
}

// next starts an element of the innermost array or object.
func (j *jsonWriter) next() {
	n := len(j.empty) - 1
	if !j.empty[n] {
		j.w.WriteByte(',')
	}
	j.empty[n] = false
	j.newline(n + 1)
}

const jsonIndent = "                                " // 16 levels; deeper levels repeat it

func (j *jsonWriter) newline(depth int) {
	j.w.WriteByte('\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(jsonIndent))
		j.w.WriteString(jsonIndent[:k])
		n -= k
	}
}

func (j *jsonWriter) key(k string) {
	j.next()
	j.str(k)
	j.w.WriteString(": ")
}

func (j *jsonWriter) int(n int) { j.w.Write(strconv.AppendInt(j.num[:0], int64(n), 10)) }

func (j *jsonWriter) bool(b bool) {
	if b {
		j.w.WriteString("true")
	} else {
		j.w.WriteString("false")
	}
}

func (j *jsonWriter) strField(k, v string) { j.key(k); j.str(v) }
func (j *jsonWriter) intField(k string, v int) {
	j.key(k)
	j.int(v)
}

// str writes s quoted as encoding/json does without HTML escaping: " and \
// behind a backslash, \b \f \n \r \t, other bytes below 0x20 as \u00XX,
// each byte of invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u2028 and
// \u2029 (JavaScript reads them as line ends); everything else as it is.
func (j *jsonWriter) str(s string) {
	const hex = "0123456789abcdef"
	w := j.w
	w.WriteByte('"')
	start := 0 // s[start:i] is written as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

func (j *jsonWriter) strMap(m map[string]string) {
	if j.null(m == nil) {
		return
	}
	j.open('{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		j.strField(k, m[k])
	}
	j.close('}')
}

func (j *jsonWriter) intMap(m map[string]int) {
	if j.null(m == nil) {
		return
	}
	j.open('{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		j.intField(k, m[k])
	}
	j.close('}')
}

func (j *jsonWriter) tool(t JSONTool) {
	j.open('{')
	j.strField("name", t.Name)
	j.strField("version", t.Version)
	j.close('}')
}

func (j *jsonWriter) position(p JSONPosition) {
	j.open('{')
	j.intField("line", p.Line)
	j.intField("column", p.Column)
	j.intField("column_utf16", p.ColumnUTF16)
	j.intField("offset", p.Offset)
	j.close('}')
}

func (j *jsonWriter) span(path string, start, end JSONPosition) {
	j.strField("path", path)
	j.key("start")
	j.position(start)
	j.key("end")
	j.position(end)
}

func (j *jsonWriter) diagnostic(d *JSONDiagnostic) {
	j.open('{')
	j.strField("code", d.Code)
	j.strField("name", d.Name)
	j.strField("severity", d.Severity)
	j.strField("message", d.Message)
	j.span(d.Path, d.Start, d.End)
	j.strField("anchor", d.Anchor)
	j.strField("project", d.Project)
	j.strField("exposure", d.Exposure)
	j.key("fixable")
	j.bool(d.Fixable)
	j.key("related")
	j.related(d.Related)
	j.key("fixes")
	j.fixes(d.Fixes)
	j.close('}')
}

// null writes null for a nil slice or map, as encoding/json does (the
// report's builders make empty ones), and tells whether it did.
func (j *jsonWriter) null(isNil bool) bool {
	if isNil {
		j.w.WriteString("null")
	}
	return isNil
}

func (j *jsonWriter) related(rs []JSONRelated) {
	if j.null(rs == nil) {
		return
	}
	j.open('[')
	for i := range rs {
		j.next()
		j.open('{')
		j.span(rs[i].Path, rs[i].Start, rs[i].End)
		j.strField("message", rs[i].Message)
		j.close('}')
	}
	j.close(']')
}

func (j *jsonWriter) fixes(fs []JSONFix) {
	if j.null(fs == nil) {
		return
	}
	j.open('[')
	for i := range fs {
		j.next()
		j.open('{')
		j.strField("message", fs[i].Message)
		j.strField("applicability", fs[i].Applicability)
		j.key("edits")
		j.edits(fs[i].Edits)
		j.close('}')
	}
	j.close(']')
}

func (j *jsonWriter) edits(es []JSONEdit) {
	if j.null(es == nil) {
		return
	}
	j.open('[')
	for i := range es {
		j.next()
		j.open('{')
		j.span(es[i].Path, es[i].Start, es[i].End)
		j.strField("content", es[i].Content)
		j.key("create")
		j.bool(es[i].Create)
		j.close('}')
	}
	j.close(']')
}

func (j *jsonWriter) project(p *JSONProject) {
	j.open('{')
	j.strField("dir", p.Dir)
	j.key("versions")
	j.strMap(p.Versions)
	j.key("handlers")
	j.handlers(p.Handlers)
	j.intField("modules", p.Modules)
	j.strField("verdict", p.Verdict)
	j.key("guard")
	j.open('{')
	j.strField("path", p.Guard.Path)
	j.intField("line", p.Guard.Line)
	j.close('}')
	j.close('}')
}

func (j *jsonWriter) handlers(hs []JSONHandler) {
	if j.null(hs == nil) {
		return
	}
	j.open('[')
	for i := range hs {
		h := &hs[i]
		j.next()
		j.open('{')
		j.strField("name", h.Name)
		j.strField("kind", h.Kind)
		j.strField("framework", h.Framework)
		j.key("async")
		j.bool(h.Async)
		j.strField("path", h.Path)
		j.intField("line", h.Line)
		j.close('}')
	}
	j.close(']')
}

func (j *jsonWriter) summary(s *JSONSummary) {
	j.open('{')
	j.intField("findings", s.Findings)
	j.intField("errors", s.Errors)
	j.intField("warnings", s.Warnings)
	j.intField("notes", s.Notes)
	j.intField("fixable", s.Fixable)
	j.intField("hidden_fixes", s.HiddenFixes)
	j.key("by_code")
	j.intMap(s.ByCode)
	j.key("suppressed")
	j.intMap(s.Suppressed)
	j.key("dropped")
	j.intMap(s.Dropped)
	j.intField("files", s.Files)
	j.intField("parsed", s.Parsed)
	j.intField("fixed", s.Fixed)
	j.intField("fixed_files", s.FixedFiles)
	j.strField("verdict", s.Verdict)
	j.close('}')
}

// report writes a whole report (BuildJSON's document) as one value.
func (j *jsonWriter) report(r *JSONReport) {
	j.open('{')
	j.intField("schema_version", r.SchemaVersion)
	j.key("tool")
	j.tool(r.Tool)
	j.key("diagnostics")
	if !j.null(r.Diagnostics == nil) {
		j.open('[')
		for i := range r.Diagnostics {
			j.next()
			j.diagnostic(&r.Diagnostics[i])
		}
		j.close(']')
	}
	j.key("projects")
	if !j.null(r.Projects == nil) {
		j.open('[')
		for i := range r.Projects {
			j.next()
			j.project(&r.Projects[i])
		}
		j.close(']')
	}
	j.key("summary")
	j.summary(&r.Summary)
	j.close('}')
}
