package report

import (
	"io"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/mcplint/mcplint/internal/escape"
)

// jsonWriter writes the JSON report's types byte for byte as
// encoding/json's Encoder with SetIndent("", "  ") and SetEscapeHTML(false)
// writes them, passed through escape.JSON (as SARIF is): keys in struct order, map keys sorted, "[]" and "{}" for
// empty slices and maps, null for nil ones, two spaces per level. It
// appends to a buffer that it hands to the writer every 64 KiB, so a report
// of any size takes little memory.
//
// It exists because encoding/json encodes through reflection and then
// indents in a second pass over a growing buffer, which was half of a warm
// run's CPU on a large tree; goccy/go-json, the fast drop-in, writes
// different bytes (\u0008 for \b, map keys of non-ASCII strings in another
// order). TestJSONWriterEngineResults, TestJSONWriterHostile and
// FuzzJSONWriter compare it with encoding/json.
type jsonWriter struct {
	out io.Writer
	err error // the first error of out
	buf []byte
	// empty holds, per open object or array, whether nothing was written
	// in it yet (it closes on the same line then).
	empty []bool
}

const jsonChunk = 64 << 10

func newJSONWriter(w io.Writer) *jsonWriter {
	return &jsonWriter{out: w, buf: make([]byte, 0, jsonChunk+4<<10)}
}

// flush hands the buffer to the writer.
func (j *jsonWriter) flush() {
	if len(j.buf) > 0 && j.err == nil {
		_, j.err = j.out.Write(j.buf)
	}
	j.buf = j.buf[:0]
}

// finish ends the document with a newline and writes what is left.
func (j *jsonWriter) finish() error {
	j.buf = append(j.buf, '\n')
	j.flush()
	return j.err
}

func (j *jsonWriter) open(c byte) {
	j.buf = append(j.buf, c)
	j.empty = append(j.empty, true)
}

func (j *jsonWriter) close(c byte) {
	n := len(j.empty) - 1
	if !j.empty[n] {
		j.newline(n)
	}
	j.empty = j.empty[:n]
	j.buf = append(j.buf, c)
}

// next starts an element of the innermost array or object.
func (j *jsonWriter) next() {
	if len(j.buf) >= jsonChunk {
		j.flush()
	}
	n := len(j.empty) - 1
	if !j.empty[n] {
		j.buf = append(j.buf, ',')
	}
	j.empty[n] = false
	j.newline(n + 1)
}

const jsonIndent = "                                " // 16 levels; deeper levels repeat it

func (j *jsonWriter) newline(depth int) {
	j.buf = append(j.buf, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(jsonIndent))
		j.buf = append(j.buf, jsonIndent[:k]...)
		n -= k
	}
}

// key starts a member whose name needs escaping (a map key).
func (j *jsonWriter) key(k string) {
	j.next()
	j.str(k)
	j.buf = append(j.buf, ": "...)
}

// field starts a member named by a struct field: plain ASCII letters and
// underscores, which need no escaping.
func (j *jsonWriter) field(k string) {
	j.next()
	j.buf = append(j.buf, '"')
	j.buf = append(j.buf, k...)
	j.buf = append(j.buf, `": `...)
}

func (j *jsonWriter) int(n int) { j.buf = strconv.AppendInt(j.buf, int64(n), 10) }

func (j *jsonWriter) bool(b bool) { j.buf = strconv.AppendBool(j.buf, b) }

func (j *jsonWriter) strField(k, v string) {
	j.field(k)
	j.str(v)
}

func (j *jsonWriter) intField(k string, v int) {
	j.field(k)
	j.int(v)
}

func (j *jsonWriter) boolField(k string, v bool) {
	j.field(k)
	j.bool(v)
}

// str writes s quoted as encoding/json does without HTML escaping: " and \
// behind a backslash, \b \f \n \r \t, other bytes below 0x20 as \u00XX,
// each byte of invalid UTF-8 as \ufffd; then, as escape.JSON does to
// encoding/json's bytes, every other escape.Unsafe rune (DEL, C1 controls
// such as NEL, bidirectional controls, U+2028 and U+2029) as \uXXXX;
// everything else as it is.
func (j *jsonWriter) str(s string) {
	// (Most of a monorepo's JSON is handlers' names and paths: one table
	// load a byte, not four comparisons.)
	b := append(j.buf, '"')
	start := 0 // s[start:i] is written as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = escape.AppendJSONEscape(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case escape.Unsafe(r):
			b = escape.AppendJSONEscape(append(b, s[start:i]...), r)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	j.buf = append(b, '"')
}

func (j *jsonWriter) strMap(m map[string]string) {
	if j.null(m == nil) {
		return
	}
	j.open('{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		j.key(k)
		j.str(m[k])
	}
	j.close('}')
}

func (j *jsonWriter) intMap(m map[string]int) {
	if j.null(m == nil) {
		return
	}
	j.open('{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		j.key(k)
		j.int(m[k])
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
	j.field("start")
	j.position(start)
	j.field("end")
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
	j.boolField("fixable", d.Fixable)
	j.field("related")
	j.related(d.Related)
	j.field("fixes")
	j.fixes(d.Fixes)
	if m := d.More; m != nil {
		j.field("more")
		j.open('{')
		j.intField("count", m.Count)
		j.intField("first_line", m.FirstLine)
		j.intField("last_line", m.LastLine)
		j.close('}')
	}
	j.close('}')
}

// null writes null for a nil slice or map, as encoding/json does (the
// report's builders make empty ones), and tells whether it did.
func (j *jsonWriter) null(isNil bool) bool {
	if isNil {
		j.buf = append(j.buf, "null"...)
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
		j.field("edits")
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
		j.boolField("create", es[i].Create)
		j.close('}')
	}
	j.close(']')
}

func (j *jsonWriter) project(p *JSONProject) {
	j.open('{')
	j.strField("dir", p.Dir)
	j.field("versions")
	j.strMap(p.Versions)
	j.field("handlers")
	j.handlers(p.Handlers)
	j.intField("modules", p.Modules)
	j.strField("verdict", p.Verdict)
	j.field("guard")
	j.open('{')
	j.strField("path", p.Guard.Path)
	j.intField("line", p.Guard.Line)
	j.close('}')
	j.field("sources")
	j.array(len(p.Sources), p.Sources == nil, func(i int) {
		s := &p.Sources[i]
		j.open('{')
		j.strField("path", s.Path)
		j.strField("role", s.Role)
		j.strField("why", s.Why)
		j.field("decides")
		j.strings(s.Decides)
		j.close('}')
	})
	j.field("joined")
	j.strings(p.Joined)
	j.intField("unresolved_calls", p.UnresolvedCalls)
	j.intField("not_followed", p.NotFollowed)
	j.close('}')
}

func (j *jsonWriter) strings(ss []string) {
	j.array(len(ss), ss == nil, func(i int) { j.str(ss[i]) })
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
		j.boolField("async", h.Async)
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
	j.field("by_code")
	j.intMap(s.ByCode)
	j.field("suppressed")
	j.intMap(s.Suppressed)
	j.field("dropped")
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
	j.reportObject(r.SchemaVersion, r.Tool,
		func() {
			j.array(len(r.Diagnostics), r.Diagnostics == nil, func(i int) { j.diagnostic(&r.Diagnostics[i]) })
		},
		func() { j.array(len(r.Projects), r.Projects == nil, func(i int) { j.project(&r.Projects[i]) }) },
		&r.Summary)
}

// reportObject writes a report, the fields of JSONReport in its order;
// diagnostics and projects write the lists (JSON converts each element as
// it writes it, report writes a built document's).
func (j *jsonWriter) reportObject(version int, tool JSONTool, diagnostics, projects func(), summary *JSONSummary) {
	j.open('{')
	j.intField("schema_version", version)
	j.field("tool")
	j.tool(tool)
	j.field("diagnostics")
	diagnostics()
	j.field("projects")
	projects()
	j.field("summary")
	j.summary(summary)
	j.close('}')
}

// array writes a list of n elements, item(i) writing the i-th, or null
// for a nil list.
func (j *jsonWriter) array(n int, isNil bool, item func(i int)) {
	if j.null(isNil) {
		return
	}
	j.open('[')
	for i := range n {
		j.next()
		item(i)
	}
	j.close(']')
}

// jsonPlain tells the ASCII bytes str writes as they are.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != 0x7f
	}
	return t
}()
