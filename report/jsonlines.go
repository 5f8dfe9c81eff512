package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// JSONLines writes one finding a line (json-lines, ruff's json-lines): each
// line is a JSONDiagnostic of the json format, compact, with the same
// escaping (escape.JSON), every finding and nothing else (no projects, no
// summary), so that a consumer can read the findings as they stream.
func JSONLines(w io.Writer, res *engine.Result, opts Options) error {
	b := bufio.NewWriter(w)
	ds := Visible(res.Diagnostics)
	lines := map[string]*pyast.LineIndex{}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range ds {
		buf.Reset()
		jd := jsonDiagnostic(res, &ds[i], opts, lines)
		if err := enc.Encode(&jd); err != nil { // Encode ends the line
			return err
		}
		b.Write(escape.JSON(buf.Bytes()))
	}
	return b.Flush()
}

// writeForeignJSON writes v as indented JSON with mcplint's escaping and a final
// newline (the formats that follow another tool's schema: gitlab, rdjson).
func writeForeignJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escape.JSON(buf.Bytes()))
	return err
}
