package fix

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// fuzzTexts are the replacement texts FuzzPlan's edits draw from: what rules
// insert (lines written with "\n", which Apply turns into the file's
// newline), deletions, and text that holds a CRLF already.
var fuzzTexts = []string{"", "x", "\n", "await anyio.lowlevel.checkpoint_if_cancelled()\n", "import anyio\n", "a\r\nb", "    ", "\n\n", "\ufeff"}

// fuzzFixes decodes ops into fixes on path "f.py", 4 bytes per edit: start
// (2 bytes, taken modulo len(src)+3 so that some edits fall past the end),
// length, and a byte that picks the text, whether the edit joins the
// previous fix (a fix with several edits, taken whole or not at all) and
// whether it is a file creation.
func fuzzFixes(src, ops []byte) []rules.Diagnostic {
	var diags []rules.Diagnostic
	for i := 0; i+4 <= len(ops) && len(diags) < 64; i += 4 {
		start := (int(ops[i])<<8 | int(ops[i+1])) % (len(src) + 3)
		length := int(ops[i+2] % 8)
		if ops[i+2]&0x80 != 0 {
			length = -1 // an inverted range
		}
		sel := ops[i+3]
		e := rules.Edit{Path: "f.py", Start: start, End: start + length, New: fuzzTexts[int(sel&0x0f)%len(fuzzTexts)]}
		if sel&0x40 != 0 && sel&0x20 != 0 {
			e.Create = true
		}
		if sel&0x10 != 0 && len(diags) > 0 {
			f := &diags[len(diags)-1].Fixes[0]
			f.Edits = append(f.Edits, e)
			continue
		}
		diags = append(diags, rules.Diagnostic{Fixes: []rules.Fix{{Applicability: rules.Safe, Edits: []rules.Edit{e}}}})
	}
	return diags
}

// lineStyle returns the line ending every line of b uses ("\n", "\r\n" or
// "\r"), "" when b has none, "mixed" when it has several.
func lineStyle(b []byte) string {
	style := ""
	for i := 0; i < len(b); i++ {
		var nl string
		switch {
		case b[i] == '\n':
			nl = "\n"
		case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
			nl = "\r\n"
			i++
		case b[i] == '\r':
			nl = "\r"
		default:
			continue
		}
		if style != "" && style != nl {
			return "mixed"
		}
		style = nl
	}
	return style
}

// FuzzPlan merges generated fixes into a generated file. Plan must refuse a
// fix whole (out of range, a creation over an existing file, an overlap)
// or take it whole; the edits it takes never overlap; every byte no edit
// replaces is kept, in order, where MapOffset says it went; a BOM no edit
// touches stays first; and a file whose lines all end alike (LF, CRLF or a
// lone CR) keeps that one style, inserted lines included.
func FuzzPlan(f *testing.F) {
	f.Add([]byte("import os\nx = 1\ny = 2\n"), []byte{0, 10, 5, 0x01, 0, 0, 0, 0x04, 0, 12, 1, 0x12})
	f.Add([]byte("a = 1\r\nb = 2\r\n"), []byte{0, 7, 0, 0x03, 0, 2, 3, 0x02})
	f.Add([]byte("\ufeffa = 1\rb = 2\r"), []byte{0, 3, 0, 0x04, 0, 9, 0, 0x02, 0, 9, 2, 0x11})
	f.Add([]byte("async def f():\n    await g()\n"), []byte{0, 15, 0, 0x03, 0, 15, 4, 0x06, 0, 99, 0, 0x60})
	f.Add([]byte(""), []byte{0, 0, 0, 0x04, 0, 1, 0, 0x04})
	f.Fuzz(func(t *testing.T, src, ops []byte) {
		if len(src) > 1<<12 {
			src = src[:1<<12] // the checks below are O(len(src) * edits)
		}
		diags := fuzzFixes(src, ops)
		read := func(p string) ([]byte, error) {
			if p != "f.py" {
				return nil, fmt.Errorf("read %s: unexpected path", p)
			}
			return src, nil
		}
		pick := func(d *rules.Diagnostic) *rules.Fix { return &d.Fixes[0] }
		changes, skipped, err := Plan(diags, pick, read)
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) > 1 {
			t.Fatalf("%d changes for one file", len(changes))
		}
		applied := map[int]bool{}
		var c *Change
		if len(changes) == 1 {
			c = changes[0]
			if c.Path != "f.py" {
				t.Fatalf("a change of %q", c.Path)
			}
			for _, i := range c.Applied {
				applied[i] = true
			}
		}
		refused := map[int]bool{}
		for _, s := range skipped {
			if s.Index < 0 || s.Index >= len(diags) || s.Reason == "" {
				t.Fatalf("skipped %+v", s)
			}
			if applied[s.Index] {
				t.Fatalf("fix %d both applied and skipped (%s)", s.Index, s.Reason)
			}
			refused[s.Index] = true
		}
		for i := range diags {
			if !applied[i] && !refused[i] {
				t.Fatalf("fix %d neither applied nor skipped", i)
			}
		}
		if c == nil {
			return
		}
		edits := c.Edits()
		have := map[rules.Edit]bool{}
		for _, e := range edits {
			have[e] = true
		}
		for i := range diags {
			if !applied[i] {
				continue
			}
			// A fix is taken whole: each of its edits is in the change.
			for _, e := range diags[i].Fixes[0].Edits {
				if !have[e] {
					t.Fatalf("fix %d applied without its edit %+v", i, e)
				}
			}
		}
		old := c.Old
		if c.Created {
			if len(old) != 0 {
				t.Fatalf("a created file with old content %q", old)
			}
		} else if !bytes.Equal(old, src) {
			t.Fatal("Old is not the file read")
		}
		for i, a := range edits {
			if a.Start < 0 || a.End < a.Start || a.End > len(old) {
				t.Fatalf("edit %+v out of range (%d bytes)", a, len(old))
			}
			for _, b := range edits[i+1:] {
				if a == b {
					t.Fatalf("edit %+v taken twice", a)
				}
				if a.Start < b.End && b.Start < a.End || a.Start == a.End && b.Start == b.End && a.Start == b.Start ||
					a.Start == a.End && b.Start < a.Start && a.Start < b.End || b.Start == b.End && a.Start < b.Start && b.Start < a.End {
					t.Fatalf("edits %+v and %+v overlap", a, b)
				}
			}
		}
		for _, e := range edits {
			if n := insertedLen(e.New, Newline(old)); n != len(inserted(e.New, Newline(old))) {
				t.Fatalf("insertedLen(%q) = %d, inserted is %q", e.New, n, inserted(e.New, Newline(old)))
			}
		}
		if !bytes.Equal(c.New, Apply(old, edits)) {
			t.Fatal("New is not Apply(Old, edits)")
		}
		// Every byte no edit replaces, and no insertion sits at, is where
		// MapOffset says it went.
		replaced := make([]bool, len(old)+1)
		splitsCRLF := false
		for _, e := range edits {
			for o := e.Start; o < e.End; o++ {
				replaced[o] = true
			}
			replaced[e.Start] = true
			for _, o := range []int{e.Start, e.End} {
				if o > 0 && o < len(old) && old[o-1] == '\r' && old[o] == '\n' {
					splitsCRLF = true
				}
			}
		}
		nl := Newline(old)
		for o := 0; o < len(old); o++ {
			if replaced[o] {
				continue
			}
			n := MapOffset(o, edits, nl)
			if n < 0 || n >= len(c.New) || c.New[n] != old[o] {
				t.Fatalf("byte %d (%q) of the file is not at MapOffset %d of the result %q", o, old[o], n, c.New)
			}
		}
		if bytes.HasPrefix(old, []byte("\ufeff")) {
			touched := false
			for _, e := range edits {
				touched = touched || e.Start < 3
			}
			if !touched && !bytes.HasPrefix(c.New, []byte("\ufeff")) {
				t.Fatalf("the BOM is gone: %q", c.New)
			}
		}
		if style := lineStyle(old); style != "" && style != "mixed" && !splitsCRLF {
			if got := lineStyle(c.New); got != style && got != "" {
				t.Fatalf("lines ending in %q became %q: %q", style, got, c.New)
			}
		}
	})
}

// FuzzFixLoop runs check, fix, re-parse and check again on mutated Python
// seeded from the rule fixtures, next to mcp 1.x and fastmcp 3.x pins, with
// every code and meta rule and --unsafe-fixes. When a fix is applied:
//   - the fixed file parses cleanly if the original did, keeps its BOM and,
//     when all its lines end alike, that line ending;
//   - one round of fixes is exactly what Plan computes from the first
//     analysis, and a fresh analysis of its result agrees with the one the
//     fixer reports;
//   - each finding a (not partial) fix was applied for is gone: per code
//     and anchor, the fresh analysis has at most as many findings as before
//     minus those fixed (counted, so an offset mapped wrong cannot hide one);
//   - fixing until nothing changes, then fixing again, changes nothing.
func FuzzFixLoop(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/rules/*/*/*.py")
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	if len(seeds) == 0 {
		f.Fatal("no rule fixtures to seed from")
	}
	var sel []*rules.Rule
	for _, r := range rules.All() {
		if r.Kind != rules.DependencyRule {
			sel = append(sel, r)
		}
	}
	dir := filepath.ToSlash(f.TempDir())
	if err := os.WriteFile(dir+"/requirements.txt", []byte("mcp==1.20.0\nfastmcp==3.0.0\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	server := dir + "/server.py"
	if err := os.WriteFile(server, []byte("import mcp\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	unsafe := func(d *rules.Diagnostic) *rules.Fix { return Choose(d, true) }
	f.Fuzz(func(t *testing.T, src []byte) {
		opts := engine.Options{Rules: sel, Jobs: 1, Overlay: map[string][]byte{server: src}}
		one, err := Run([]string{dir}, opts, Mode{Pick: unsafe, Rounds: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(one.Files) == 0 {
			return
		}
		parsed := func(b []byte) bool {
			m, err := pyast.Parse("server.py", "server", b)
			if err != nil {
				return false
			}
			return !m.HasErrors()
		}
		cleanBefore := parsed(src)
		before, err := engine.Run([]string{dir}, opts)
		if err != nil {
			t.Fatal(err)
		}
		read := func(p string) ([]byte, error) {
			if p == server {
				return src, nil
			}
			return before.Read(p)
		}
		changes, _, err := Plan(before.Diagnostics, unsafe, read)
		if err != nil {
			t.Fatal(err)
		}
		failed := map[string]bool{}
		for _, fl := range one.Failures {
			failed[fl.Path] = true
		}
		planned := map[string]*Change{}
		for _, c := range changes {
			planned[c.Path] = c
		}
		fresh := map[string][]byte{server: src}
		for _, fr := range one.Files {
			c := planned[fr.Path]
			if c == nil || failed[fr.Path] || !bytes.Equal(c.New, fr.New) {
				t.Fatalf("%s: the fixed content is not the planned one", fr.Path)
			}
			fresh[fr.Path] = fr.New
		}
		after, err := engine.Run([]string{dir}, engine.Options{Rules: sel, Jobs: 1, Overlay: fresh})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := summary(after.Diagnostics), summary(one.Result.Diagnostics); got != want {
			t.Fatalf("the fixer's analysis of the fixed files differs from a fresh one:\nfixer:\n%s\nfresh:\n%s", want, got)
		}
		type key struct{ path, code, anchor string }
		count := map[key]int{}
		for _, d := range before.Diagnostics {
			count[key{d.Path, d.Code, d.Anchor}]++
		}
		for _, c := range changes {
			if failed[c.Path] {
				continue
			}
			for _, i := range c.Applied {
				if d := before.Diagnostics[i]; d.Path == c.Path && !c.picked[i].Partial {
					count[key{d.Path, d.Code, d.Anchor}]--
				}
			}
		}
		var moved []rules.Diagnostic
		for _, d := range after.Diagnostics {
			k := key{d.Path, d.Code, d.Anchor}
			if count[k] > 0 {
				count[k]--
			} else {
				moved = append(moved, d)
			}
		}
		// A fix that moves a body into a new inner function (MCP103's
		// _f_sync) renames what the body holds: an unfixed finding in it
		// comes back as server.f._f_sync, one in a def nested there (whose
		// own fix conflicted with the move) as server.f._f_sync.g. It is
		// the same finding when a finding of the same code under the old
		// name is left over and the new name is the old one with scopes
		// inserted that the file did not name before.
		for _, d := range moved {
			found := false
			for k, n := range count {
				if n > 0 && k.path == d.Path && k.code == d.Code && renamedScope(k.anchor, d.Anchor, src) {
					count[k]--
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%s at %s:%d (%s) is still reported after its fix, or is new", d.Code, d.Path, d.Start.Line, d.Anchor)
			}
		}

		// Fix until nothing changes, then once more.
		all, err := Run([]string{dir}, opts, Mode{Pick: unsafe, Rounds: 16})
		if err != nil {
			t.Fatal(err)
		}
		again := map[string][]byte{server: src}
		for _, fr := range all.Files {
			again[fr.Path] = fr.New
			if !strings.HasSuffix(fr.Path, ".py") || fr.Created {
				continue
			}
			if cleanBefore && !parsed(fr.New) {
				t.Fatalf("%s parsed before the fixes and does not after:\n%s", fr.Path, fr.New)
			}
			if bytes.HasPrefix(fr.Old, []byte("\ufeff")) && !bytes.HasPrefix(fr.New, []byte("\ufeff")) {
				t.Fatalf("%s lost its BOM", fr.Path)
			}
			if style := lineStyle(fr.Old); style != "" && style != "mixed" && lineStyle(fr.New) != style {
				t.Fatalf("%s: lines ending in %q became %q", fr.Path, style, lineStyle(fr.New))
			}
		}
		twice, err := Run([]string{dir}, engine.Options{Rules: sel, Jobs: 1, Overlay: again}, Mode{Pick: unsafe, Rounds: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, fr := range twice.Files {
			t.Fatalf("fixing %s again changes it:\n%s", fr.Path, UnifiedDiff(fr.Path, fr.Old, fr.New))
		}
	})
}

// renamedScope reports whether qualified name to is from with scopes
// inserted after its first part (server.f -> server.f._f_sync, server.f.g
// -> server.f._f_sync.g), each a name src does not hold.
func renamedScope(from, to string, src []byte) bool {
	a, b := strings.Split(from, "."), strings.Split(to, ".")
	if len(a) < 2 || len(b) <= len(a) || a[0] != b[0] {
		return false
	}
	i := 0
	for _, part := range b {
		switch {
		case i < len(a) && part == a[i]:
			i++
		case bytes.Contains(src, []byte(part)):
			return false // not a scope the fix made
		}
	}
	return i == len(a)
}

// summary lists diagnostics one per line: code, place and message.
func summary(diags []rules.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s %s:%d %s\n", d.Code, d.Path, d.Start.Offset, d.Message)
	}
	return b.String()
}

// FuzzDiff prints the diff --diff shows for a file whose path and contents
// come from the fuzzer: a path cannot add a line to the diff or put a
// control character in its headers (a newline there would forge a hunk,
// an escape sequence would drive the terminal), and the "+++" header names
// the path.
func FuzzDiff(f *testing.F) {
	f.Add("src/server.py", []byte("a = 1\n"), []byte("a = 2\n"))
	f.Add("evil\n+++ b/other.py\n@@ -1 +1 @@", []byte("x\r\n"), []byte("y\r\n"))
	f.Add("term\x1b[2J\x07\u202e.py", []byte(""), []byte("import anyio\n"))
	f.Fuzz(func(t *testing.T, path string, old, new []byte) {
		for _, created := range []bool{false, true} {
			var d string
			if created {
				d = NewFileDiff(path, new)
			} else {
				d = UnifiedDiff(path, old, new)
			}
			if d == "" {
				continue
			}
			lines := strings.SplitAfter(d, "\n")
			if len(lines) < 2 {
				t.Fatalf("no headers:\n%s", d)
			}
			// The headers are the first two lines (a content line may
			// print as "+++ x" too: "++ x" added).
			for _, l := range lines[:2] {
				for _, r := range strings.TrimSuffix(l, "\n") {
					if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e' || r == '\u2028' || r == '\u2029' {
						t.Fatalf("header %q holds %U", l, r)
					}
				}
			}
			headers := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
					headers++
				}
			}
			// Two headers, plus one per content line that starts with
			// "-- " or "++ " (which print as "--- " or "+++ ").
			want := 2
			for _, content := range [][]byte{old, new} {
				for _, l := range strings.Split(string(content), "\n") {
					if strings.HasPrefix(l, "-- ") || strings.HasPrefix(l, "++ ") {
						want++
					}
				}
			}
			if headers > want {
				t.Fatalf("%d header lines (want at most %d): the path added lines:\n%s", headers, want, d)
			}
			if !strings.HasPrefix(lines[1], "+++ b/") {
				t.Fatalf("the second line is %q, not the +++ header", lines[1])
			}
		}
	})
}
