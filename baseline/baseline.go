// Package baseline records the findings a repository already has, so that a
// later run reports only new ones (golangci-lint's new-from-rev idea, ruff's
// --add-noqa, eslint's suppressions file).
//
// A finding is recorded by a fingerprint that does not depend on line or
// column numbers: its rule code, its file path (relative to the baseline
// file's folder, so the file works from any working directory), its anchor
// (the enclosing function's qualified name, or the dependency's name) and a
// normalised snippet (the first line of the finding's text with runs of
// whitespace collapsed). Inserting or deleting lines above a finding, or
// re-indenting it, keeps its fingerprint; changing the flagged code, moving
// it to another function or renaming the file makes it new. Identical
// findings in one function are counted, so a second copy of a recorded
// problem is still reported.
//
// The file is JSON, sorted, one entry per fingerprint, so that it diffs well
// in review.
package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/internal/safewrite"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// Version is the format version written and understood.
const Version = 1

// DroppedKey is the key of Result.Dropped that counts the findings the
// baseline removed.
const DroppedKey = "baseline"

// File is a baseline file's contents.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Findings []Entry `json:"findings"`
}

// Entry is one recorded finding (Count of them when identical).
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Code        string `json:"code"`
	Path        string `json:"path"`
	Anchor      string `json:"anchor,omitempty"`
	Snippet     string `json:"snippet"`
	Count       int    `json:"count,omitempty"` // omitted when 1
}

// Fingerprint hashes the line-independent identity of a finding.
func Fingerprint(code, path, anchor, snippet string) string {
	h := sha256.New()
	for _, s := range []string{code, path, anchor, snippet} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// Snippet returns the normalised text of d in src: the finding's range up
// to the end of its first line (or that whole line when the range is
// empty), with whitespace runs collapsed to one space.
func Snippet(src []byte, d rules.Diagnostic) string {
	start, end := d.Start.Offset, d.End.Offset
	if start < 0 || start > len(src) {
		return ""
	}
	if end > len(src) || end < start {
		end = start
	}
	if nl := bytes.IndexByte(src[start:end], '\n'); nl >= 0 {
		end = start + nl
	}
	if end == start {
		li := pyast.NewLineIndex(src)
		return normalise(li.LineText(li.Position(start).Line))
	}
	return normalise(string(src[start:end]))
}

func normalise(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// key computes an entry for d; dir is the baseline file's folder.
func key(res *engine.Result, dir string, d rules.Diagnostic) Entry {
	p := relPath(dir, d.Path)
	var snippet string
	if src, err := res.Read(d.Path); err == nil {
		snippet = Snippet(src, d)
	}
	return Entry{Fingerprint: Fingerprint(d.Code, p, d.Anchor, snippet), Code: d.Code, Path: p, Anchor: d.Anchor, Snippet: snippet}
}

// relPath makes a finding's path relative to dir, slash-separated.
func relPath(dir, p string) string {
	abs, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		return p
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil {
		return p
	}
	return filepath.ToSlash(rel)
}

// Build records the reported findings of res (suppressed ones are not) for
// a baseline file in folder dir.
func Build(res *engine.Result, dir string) *File {
	byFP := map[string]*Entry{}
	add := func(d *rules.Diagnostic) bool {
		e := key(res, dir, *d)
		if prev := byFP[e.Fingerprint]; prev != nil {
			prev.Count++
			return true
		}
		e.Count = 1
		byFP[e.Fingerprint] = &e
		return true
	}
	for _, d := range res.Diagnostics {
		if d.Suppression != nil {
			continue
		}
		res.Refold(d, add) // the findings folded into d too, each by its place
	}
	f := &File{Version: Version, Tool: "mcplint", Findings: []Entry{}}
	for _, e := range byFP {
		f.Findings = append(f.Findings, *e)
	}
	sort.Slice(f.Findings, func(i, j int) bool {
		a, b := f.Findings[i], f.Findings[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Anchor != b.Anchor {
			return a.Anchor < b.Anchor
		}
		return a.Fingerprint < b.Fingerprint
	})
	return f
}

// Write records the findings of res in the baseline file at path, and
// returns how many findings it recorded.
func Write(path string, res *engine.Result) (int, error) {
	b, n, err := encode(Build(res, filepath.Dir(path)))
	if err != nil {
		return 0, err
	}
	// Only a regular file (or a new one) is replaced, by a new file; a
	// symlink is refused (the repository may have planted it).
	if err := safewrite.WriteFile(path, b, safewrite.Options{Output: true}); err != nil {
		return 0, fmt.Errorf("write baseline: %w", err)
	}
	return n, nil
}

// encode returns the file's JSON, with the number of findings it records
// (a count of 1 is not written).
func encode(f *File) ([]byte, int, error) {
	n := 0
	for i := range f.Findings {
		n += f.Findings[i].Count
		if f.Findings[i].Count == 1 {
			f.Findings[i].Count = 0
		}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, 0, err
	}
	// A baseline is committed and reviewed: no raw bidirectional control
	// or line separator from a path or message (escape.JSON).
	return append(escape.JSON(b), '\n'), n, nil
}

// Read loads a baseline file.
func Read(path string) (*File, error) {
	b, err := safeio.ReadFile(path, safeio.Baseline)
	if err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	return decode(path, b)
}

// decode reads the contents b of the baseline file at path.
func decode(path string, b []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		// The decoder's error may quote the file (an unknown field's name).
		return nil, fmt.Errorf("%s: not an mcplint baseline: %s", path, escape.Bound(err.Error()))
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, this mcplint reads version %d: write it again with --write-baseline", path, f.Version, Version)
	}
	for i, e := range f.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("%s: finding %d has no fingerprint", path, i+1)
		}
	}
	return &f, nil
}

// Filter is the processor that drops the findings a baseline records.
type Filter struct {
	file *File
	dir  string
	// Matched and Stale are set by Process: findings dropped, and baseline
	// entries (counting repeats) that matched no finding, so the file can be
	// refreshed.
	Matched, Stale int
}

// NewFilter loads the baseline file at path as a processor.
func NewFilter(path string) (*Filter, error) {
	f, err := Read(path)
	if err != nil {
		return nil, err
	}
	return &Filter{file: f, dir: filepath.Dir(path)}, nil
}

// Name implements engine.Processor.
func (f *Filter) Name() string { return DroppedKey }

// Process implements engine.Processor.
func (f *Filter) Process(res *engine.Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	left := map[string]int{}
	total := 0
	for _, e := range f.file.Findings {
		n := max(e.Count, 1)
		left[e.Fingerprint] += n
		total += n
	}
	out := diags[:0:0]
	f.Matched = 0
	for _, d := range diags {
		// Each finding folded into d (Diagnostic.More) by its own place.
		if d, ok := res.Refold(d, func(x *rules.Diagnostic) bool {
			if x.Suppression == nil {
				if fp := key(res, f.dir, *x).Fingerprint; left[fp] > 0 {
					left[fp]--
					f.Matched++
					return false
				}
			}
			return true
		}); ok {
			out = append(out, d)
		}
	}
	res.Dropped[DroppedKey] += f.Matched
	f.Stale = total - f.Matched
	return out, nil
}
