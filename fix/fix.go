// Package fix applies the fixes of diagnostics: it chooses one alternative
// per diagnostic, merges the edits of each file, refuses overlapping edits,
// checks the result (it must re-parse and the fixed findings must be gone,
// which the caller verifies by re-running the analysis on the new contents)
// and writes files atomically, keeping their mode, newline style and BOM.
package fix

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safewrite"
	"github.com/mcplint/mcplint/pystyle"
	"github.com/mcplint/mcplint/rules"
)

// Choose returns the fix --fix (unsafe=false) or --unsafe-fixes (unsafe=true)
// applies to d: the first safe alternative that has edits, else, with
// unsafe, the first unsafe one. A rule lists its alternatives by preference,
// but --unsafe-fixes only allows more fixes, it does not ask for riskier
// ones: where a safe fix exists it is taken over an unsafe alternative
// listed before it (MCP101's checkpoint over abandon_on_cancel=True,
// MCP001's floor raise within 1.x over the move to mcp 2).
func Choose(d *rules.Diagnostic, unsafe bool) *rules.Fix {
	var firstUnsafe *rules.Fix
	for i := range d.Fixes {
		f := &d.Fixes[i]
		if len(f.Edits) == 0 || f.Applicability == rules.DisplayOnly {
			continue
		}
		if f.Applicability == rules.Safe {
			return f
		}
		if firstUnsafe == nil {
			firstUnsafe = f
		}
	}
	if unsafe {
		return firstUnsafe
	}
	return nil
}

// Alternative returns the n-th (1-based) applicable alternative of d, for
// tests that check each alternative separately.
func Alternative(d *rules.Diagnostic, n int) *rules.Fix {
	k := 0
	for i := range d.Fixes {
		f := &d.Fixes[i]
		if len(f.Edits) == 0 || f.Applicability == rules.DisplayOnly {
			continue
		}
		if k++; k == n {
			return f
		}
	}
	return nil
}

// Change is the planned new content of one file.
type Change struct {
	Path    string
	Old     []byte
	New     []byte
	Applied []int // indices of the diagnostics whose fix is in New
	Created bool  // the file does not exist: a fix creates it (Old is empty)
	edits   []rules.Edit
	picked  map[int]*rules.Fix // the fix applied for each index in Applied
}

// Skipped is a diagnostic whose fix was not applied, and why.
type Skipped struct {
	Index  int
	Reason string
}

// Plan merges the chosen fixes of diags per file. pick returns the fix to
// apply for a diagnostic (nil: none). A fix whose edits overlap an edit
// already taken is skipped whole (a later round may apply it); identical
// edits from several fixes (the same import added twice) are applied once.
// read returns a file's current contents.
func Plan(diags []rules.Diagnostic, pick func(*rules.Diagnostic) *rules.Fix, read func(string) ([]byte, error)) ([]*Change, []Skipped, error) {
	byPath := map[string]*Change{}
	var order []string
	var skipped []Skipped
	for i := range diags {
		f := pick(&diags[i])
		if f == nil {
			continue
		}
		// All edits of one fix are taken together, or none.
		ok := true
		for k, e := range f.Edits {
			c := byPath[e.Path]
			if c == nil {
				src, err := read(e.Path)
				switch {
				case e.Create && errors.Is(err, fs.ErrNotExist):
					c = &Change{Path: e.Path, Created: true}
				case e.Create: // a file, a directory, a link, or unreadable
					ok = false
					skipped = append(skipped, Skipped{i, fmt.Sprintf("%s exists: a fix never overwrites a file", e.Path)})
				case err != nil:
					return nil, nil, fmt.Errorf("read %s: %w", e.Path, err)
				default:
					c = &Change{Path: e.Path, Old: src}
				}
				if !ok {
					break
				}
				byPath[e.Path] = c
				order = append(order, e.Path)
			}
			if e.Create != c.Created {
				ok = false
				skipped = append(skipped, Skipped{i, fmt.Sprintf("a fix both creates and edits %s", e.Path)})
				break
			}
			if e.Start < 0 || e.End < e.Start || e.End > len(c.Old) {
				ok = false
				skipped = append(skipped, Skipped{i, fmt.Sprintf("edit out of range in %s", e.Path)})
				break
			}
			if conflicts(c.edits, e) {
				ok = false
				skipped = append(skipped, Skipped{i, "overlaps another fix"})
				break
			}
			// A rule's fix whose own edits overlap cannot be applied.
			if conflicts(samePath(f.Edits[:k], e.Path), e) {
				ok = false
				skipped = append(skipped, Skipped{i, fmt.Sprintf("the fix's own edits overlap in %s", e.Path)})
				break
			}
		}
		if !ok {
			continue
		}
		for _, e := range f.Edits {
			c := byPath[e.Path]
			if !hasEdit(c.edits, e) {
				c.edits = append(c.edits, e)
			}
			if len(c.Applied) == 0 || c.Applied[len(c.Applied)-1] != i {
				c.Applied = append(c.Applied, i)
				if c.picked == nil {
					c.picked = map[int]*rules.Fix{}
				}
				c.picked[i] = f
			}
		}
	}
	var out []*Change
	for _, p := range order {
		c := byPath[p]
		if len(c.edits) == 0 {
			continue
		}
		c.New = Apply(c.Old, c.edits)
		out = append(out, c)
	}
	return out, skipped, nil
}

// samePath returns the edits of path.
func samePath(edits []rules.Edit, path string) []rules.Edit {
	var out []rules.Edit
	for _, e := range edits {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

func hasEdit(edits []rules.Edit, e rules.Edit) bool {
	for _, x := range edits {
		if x == e {
			return true
		}
	}
	return false
}

// conflicts reports whether e overlaps an edit in edits. Identical edits do
// not conflict; two insertions at one offset do (their order is undefined).
func conflicts(edits []rules.Edit, e rules.Edit) bool {
	for _, x := range edits {
		if x == e {
			continue
		}
		if x.Start == x.End && e.Start == e.End {
			if x.Start == e.Start {
				return true
			}
			continue
		}
		if e.Start < x.End && x.Start < e.End {
			return true
		}
		if (x.Start == x.End && x.Start > e.Start && x.Start < e.End) || (e.Start == e.End && e.Start > x.Start && e.Start < x.End) {
			return true
		}
	}
	return false
}

// Apply applies non-overlapping edits to src. Inserted text written with
// "\n" (or "\r\n") gets the file's newline style ("\r\n" when the file uses CRLF, "\r"
// when its lines end with a lone CR).
func Apply(src []byte, edits []rules.Edit) []byte {
	return ApplyNewline(src, edits, Newline(src))
}

// ApplyNewline is Apply with the inserted lines ending in nl: for a part of
// a file (SARIF's whole-line replacements), whose own first line end need
// not be the file's (FuzzLog crasher fbd555c072118a1c: an LF line in a file
// whose first line ends in CRLF).
func ApplyNewline(src []byte, edits []rules.Edit, nl string) []byte {
	sorted := append([]rules.Edit(nil), edits...)
	// An insertion at the start of a replaced range goes before the
	// replacement (Plan allows the pair; the reverse order would run the
	// copy backwards).
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.Start == a.End && b.Start != b.End
	})
	var buf bytes.Buffer
	last := 0
	for _, e := range sorted {
		buf.Write(src[last:e.Start])
		buf.WriteString(inserted(e.New, nl))
		last = e.End
	}
	buf.Write(src[last:])
	return buf.Bytes()
}

// inserted is an edit's text as Apply writes it in a file whose newline is
// nl: its line ends ("\n" or "\r\n") become nl, so that a text taken from
// a CRLF file does not mix line ends into a LF one.
func inserted(text, nl string) string { return toNewline(text, nl) }

// insertedLen is len(inserted(text, nl)), computed without building it.
func insertedLen(text, nl string) int {
	return len(text) - strings.Count(text, "\r\n") + strings.Count(text, "\n")*(len(nl)-1)
}

// MapOffset maps an offset of the original file through edits, as Apply
// applies them in a file whose newline is nl (Newline of the file): an
// inserted line is as long as it is in that style.
func MapOffset(off int, edits []rules.Edit, nl string) int {
	delta := 0
	for _, e := range edits {
		if e.End <= off && !(e.Start == e.End && e.Start == off) {
			delta += insertedLen(e.New, nl) - (e.End - e.Start)
		} else if e.Start < off && off < e.End {
			return e.Start + delta
		}
	}
	return off + delta
}

// insertedAt returns the length of the text edits insert at off (Plan
// allows one insertion per offset), as Apply writes it.
func insertedAt(off int, edits []rules.Edit, nl string) int {
	for _, e := range edits {
		if e.Start == e.End && e.Start == off {
			return insertedLen(e.New, nl)
		}
	}
	return 0
}

// Edits returns the merged edits of a change.
func (c *Change) Edits() []rules.Edit { return c.edits }

// Newline returns the file's line ending, as its first line ends: "\n",
// "\r\n" or "\r" (CPython reads a lone CR as a line end).
func Newline(src []byte) string { return pystyle.Newline(src) }

func toNewline(s, nl string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\n", nl)
}

// UnifiedDiff returns a unified diff of a file's change ("" when equal).
func UnifiedDiff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	// The path comes from the scanned tree: a newline or a terminal escape
	// in it must not reach the header as is.
	path = escape.Visible(path)
	return udiff.Unified("a/"+path, "b/"+path, string(old), string(new))
}

// NewFileDiff returns the unified diff that creates a file. The path is
// escaped as UnifiedDiff's is (FuzzDiff found it printed raw: a fix that
// creates a file in a folder whose name holds a newline or a terminal
// escape forged diff lines or drove the terminal).
func NewFileDiff(path string, data []byte) string {
	return udiff.Unified("/dev/null", "b/"+escape.Visible(path), "", string(data))
}

// WriteAtomic replaces the existing file at path with data, through a
// temporary file renamed over it, keeping its mode and owner; a symlink is
// followed and kept. It refuses what safewrite refuses (not a regular file,
// read-only, hard-linked). Write adds the fixer's checks.
func WriteAtomic(path string, data []byte) error {
	return safewrite.WriteFile(path, data, safewrite.Options{MustExist: true})
}
