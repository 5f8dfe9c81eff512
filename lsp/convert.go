package lsp

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The protocol's positions are 0-based lines and UTF-16 code units (the
// only encoding LSP 3.16 has); pyast.Position has 1-based lines and
// Column16, counted from 1, and the lines of both end at "\n", "\r\n" or a
// lone "\r".

// uriPath returns the absolute path of a file: URI.
func uriPath(uri protocol.DocumentUri) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file: URI: %s", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" { // file:///C:/x -> C:\x
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathURI returns the file: URI of an absolute path.
func pathURI(abs string) protocol.DocumentUri {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// absPath returns the absolute path of a path as the engine reports it
// (relative to the working directory when under it).
func absPath(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	if wd, err := os.Getwd(); err == nil {
		return filepath.Join(wd, p)
	}
	return p
}

func toPosition(p pyast.Position) protocol.Position {
	col := p.Column16
	if col == 0 { // made by hand with a rune column only
		col = p.Column
	}
	return protocol.Position{Line: protocol.UInteger(max(p.Line-1, 0)), Character: protocol.UInteger(max(col-1, 0))}
}

func toRange(l rules.Location) protocol.Range {
	r := protocol.Range{Start: toPosition(l.Start), End: toPosition(l.End)}
	if less(r.End, r.Start) {
		r.End = r.Start
	}
	return r
}

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// contains tells whether p is in r, its end included (a cursor just after
// a finding's last character is on it).
func contains(r protocol.Range, p protocol.Position) bool {
	return !less(p, r.Start) && !less(r.End, p)
}

// onLines tells whether the lines of a request's range (a cursor, a
// selection) meet those of a finding: the editor asks for the actions of
// the cursor's line, and shows a finding's on each of its lines.
func onLines(finding, req protocol.Range) bool {
	return req.Start.Line <= finding.End.Line && finding.Start.Line <= req.End.Line
}

var severities = map[rules.Severity]protocol.DiagnosticSeverity{
	rules.SeverityError:   protocol.DiagnosticSeverityError,
	rules.SeverityWarning: protocol.DiagnosticSeverityWarning,
	rules.SeverityNote:    protocol.DiagnosticSeverityInformation,
	rules.SeverityNone:    protocol.DiagnosticSeverityHint,
}

// toDiagnostic is a finding as the protocol shows it: the rule's code, the
// source "mcplint", and the related locations (the handler that reaches a
// code finding, ...).
func toDiagnostic(d *rules.Diagnostic) protocol.Diagnostic {
	sev := severities[d.Severity]
	source := "mcplint"
	out := protocol.Diagnostic{
		Range:    toRange(d.Location),
		Severity: &sev,
		Code:     &protocol.IntegerOrString{Value: d.Code},
		Source:   &source,
		Message:  d.Message,
	}
	for _, r := range d.Related {
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: pathURI(absPath(r.Path)), Range: toRange(r.Location)},
			Message:  r.Message,
		})
	}
	return out
}

// offsetOf is the byte offset of a protocol position in src (clamped to
// its line and to the file).
func offsetOf(src []byte, li *pyast.LineIndex, p protocol.Position) int {
	line := int(p.Line) + 1
	if line > li.Lines() {
		return len(src)
	}
	off := li.LineStart(line)
	end := len(src)
	if line < li.Lines() {
		end = li.LineStart(line + 1)
	}
	for units := 0; off < end && units < int(p.Character); {
		r, size := utf8.DecodeRune(src[off:])
		if r == '\n' || r == '\r' {
			break
		}
		off += size
		units++
		if r >= 0x10000 {
			units++
		}
	}
	return off
}

// applyChange applies one incremental content change to a buffer.
func applyChange(src []byte, r protocol.Range, text string) []byte {
	li := pyast.NewLineIndex(src)
	start, end := offsetOf(src, li, r.Start), offsetOf(src, li, r.End)
	if end < start {
		start, end = end, start
	}
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// workspaceEdit turns a fix's byte-offset edits into a workspace edit.
// read returns a file's contents as the analysis saw them (the edits'
// offsets are in those bytes); versions are the open buffers'. A fix that
// creates a file needs a client that applies "create" operations
// (canCreate); it then goes out as documentChanges, with the open buffers'
// versions so that a client refuses it on a buffer changed since.
func workspaceEdit(f *rules.Fix, read func(string) ([]byte, error), versions map[string]int32, canCreate bool) (*protocol.WorkspaceEdit, error) {
	type fileEdits struct {
		abs    string
		edits  []protocol.TextEdit
		create bool
	}
	var files []fileEdits
	paths, byPath := f.EditsByFile()
	for _, path := range paths {
		group := byPath[path]
		fe := fileEdits{abs: absPath(path)}
		if group[0].Create {
			if !canCreate {
				return nil, fmt.Errorf("it creates %s, and the client cannot create files", path)
			}
			fe.create = true
			for _, e := range group {
				fe.edits = append(fe.edits, protocol.TextEdit{NewText: e.New})
			}
			files = append(files, fe)
			continue
		}
		src, err := read(path)
		if err != nil {
			return nil, err
		}
		li := pyast.NewLineIndex(src)
		nl := fix.Newline(src)
		// In the order fix.Apply applies them: an insertion at the start
		// of a replaced range goes first.
		sorted := append([]rules.Edit(nil), group...)
		sort.SliceStable(sorted, func(i, j int) bool {
			a, b := sorted[i], sorted[j]
			if a.Start != b.Start {
				return a.Start < b.Start
			}
			return a.Start == a.End && b.Start != b.End
		})
		for _, e := range sorted {
			if e.Start < 0 || e.End < e.Start || e.End > len(src) {
				return nil, fmt.Errorf("edit out of range in %s", path)
			}
			fe.edits = append(fe.edits, protocol.TextEdit{
				Range: protocol.Range{Start: toPosition(li.Position(e.Start)), End: toPosition(li.Position(e.End))},
				// The inserted text in the file's newline style, as
				// fix.Apply writes it.
				NewText: string(fix.ApplyNewline(nil, []rules.Edit{{New: e.New}}, nl)),
			})
		}
		files = append(files, fe)
	}
	created := false
	for _, fe := range files {
		created = created || fe.create
	}
	if !created && !canCreate {
		// Plain changes: every client applies them.
		w := &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{}}
		for _, fe := range files {
			uri := pathURI(fe.abs)
			w.Changes[uri] = append(w.Changes[uri], fe.edits...)
		}
		return w, nil
	}
	w := &protocol.WorkspaceEdit{}
	for _, fe := range files {
		uri := pathURI(fe.abs)
		id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}}
		if fe.create {
			no := false
			w.DocumentChanges = append(w.DocumentChanges, protocol.CreateFile{Kind: "create", URI: uri, Options: &protocol.CreateFileOptions{Overwrite: &no, IgnoreIfExists: &no}})
		} else if v, ok := versions[fe.abs]; ok {
			iv := protocol.Integer(v)
			id.Version = &iv
		}
		edits := make([]any, len(fe.edits))
		for i, e := range fe.edits {
			edits[i] = e
		}
		w.DocumentChanges = append(w.DocumentChanges, protocol.TextDocumentEdit{TextDocument: id, Edits: edits})
	}
	return w, nil
}
