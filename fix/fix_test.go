package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/rules"
)

func diag(fixes ...rules.Fix) rules.Diagnostic { return rules.Diagnostic{Fixes: fixes} }

func edit(p string, s, e int, n string) rules.Edit {
	return rules.Edit{Path: p, Start: s, End: e, New: n}
}

func TestChooseAndAlternative(t *testing.T) {
	d := diag(
		rules.Fix{Message: "advice", Applicability: rules.DisplayOnly},
		rules.Fix{Message: "unsafe", Applicability: rules.Unsafe, Edits: []rules.Edit{edit("a", 0, 0, "x")}},
		rules.Fix{Message: "safe", Applicability: rules.Safe, Edits: []rules.Edit{edit("a", 0, 0, "y")}},
	)
	if f := Choose(&d, false); f == nil || f.Message != "safe" {
		t.Errorf("--fix chose %v, want the safe fix", f)
	}
	if f := Choose(&d, true); f == nil || f.Message != "safe" {
		t.Errorf("--unsafe-fixes chose %v, want the safe fix over the unsafe one listed first", f)
	}
	onlyUnsafe := diag(d.Fixes[0], d.Fixes[1], rules.Fix{Message: "unsafe 2", Applicability: rules.Unsafe, Edits: []rules.Edit{edit("a", 0, 0, "z")}})
	if f := Choose(&onlyUnsafe, true); f == nil || f.Message != "unsafe" {
		t.Errorf("--unsafe-fixes chose %v, want the first unsafe fix when there is no safe one", f)
	}
	if f := Choose(&onlyUnsafe, false); f != nil {
		t.Errorf("--fix chose %v, want none", f)
	}
	if f := Alternative(&d, 2); f == nil || f.Message != "safe" {
		t.Errorf("alternative 2 = %v, want safe (display-only fixes are not alternatives)", f)
	}
	if f := Alternative(&d, 3); f != nil {
		t.Errorf("alternative 3 = %v, want none", f)
	}
}

func TestPlanMergesAndRefusesOverlaps(t *testing.T) {
	src := []byte("import os\nx = 1\ny = 2\n")
	read := func(string) ([]byte, error) { return src, nil }
	diags := []rules.Diagnostic{
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 10, 15, "x = 10"), edit("f.py", 0, 0, "import anyio\n")}}),
		// Same import edit: applied once, no conflict.
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 16, 21, "y = 20"), edit("f.py", 0, 0, "import anyio\n")}}),
		// Overlaps the first: skipped whole.
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 12, 13, "="), edit("f.py", 21, 21, "\n")}}),
	}
	pick := func(d *rules.Diagnostic) *rules.Fix { return &d.Fixes[0] }
	changes, skipped, err := Plan(diags, pick, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		t.Fatalf("%d changes", len(changes))
	}
	if got, want := string(changes[0].New), "import anyio\nimport os\nx = 10\ny = 20\n"; got != want {
		t.Errorf("merged result %q, want %q", got, want)
	}
	if len(skipped) != 1 || skipped[0].Index != 2 {
		t.Errorf("skipped %v, want the overlapping third fix", skipped)
	}
	if got := changes[0].Applied; len(got) != 2 {
		t.Errorf("applied %v", got)
	}
}

func TestApplyKeepsCRLF(t *testing.T) {
	src := []byte("a = 1\r\nb = 2\r\n")
	got := Apply(src, []rules.Edit{edit("f", 7, 7, "x = 0\n")})
	if string(got) != "a = 1\r\nx = 0\r\nb = 2\r\n" {
		t.Errorf("got %q", got)
	}
	lf := Apply([]byte("a\nb\n"), []rules.Edit{edit("f", 2, 2, "x\n")})
	if string(lf) != "a\nx\nb\n" {
		t.Errorf("LF file got %q", lf)
	}
	cr := Apply([]byte("a = 1\rb = 2\r"), []rules.Edit{edit("f", 6, 6, "x = 0\n")})
	if string(cr) != "a = 1\rx = 0\rb = 2\r" {
		t.Errorf("lone-CR file got %q", cr)
	}
}

func TestMapOffset(t *testing.T) {
	edits := []rules.Edit{edit("f", 0, 0, "abc"), edit("f", 10, 12, "")}
	cases := map[int]int{0: 0, 5: 8, 10: 13, 11: 13, 20: 21}
	for in, want := range cases {
		if got := MapOffset(in, edits, "\n"); got != want {
			t.Errorf("MapOffset(%d) = %d, want %d", in, got, want)
		}
	}
	// In a CRLF file an inserted line is one byte longer than its "\n"
	// text (FuzzPlan found it: the fixer looked for a finding that its fix
	// left in place at the wrong offset, and did not see it).
	crlf := []byte("a = 1\r\nb = 2\r\n")
	edits = []rules.Edit{edit("f", 2, 5, "\n"), edit("f", 7, 7, "x = 0\n")}
	got := Apply(crlf, edits)
	for in, want := range map[int]int{5: 4, 6: 5, 8: 14} {
		if at := MapOffset(in, edits, Newline(crlf)); at != want || got[at] != crlf[in] {
			t.Errorf("CRLF: MapOffset(%d) = %d, want %d (in %q)", in, at, want, got)
		}
	}
}

func TestWriteAtomicKeepsModeAndSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.py")
	if err := os.WriteFile(real, []byte("old"), 0o750); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced by a file")
	}
	b, _ := os.ReadFile(real)
	st, _ := os.Stat(real)
	if string(b) != "new" || st.Mode().Perm() != 0o750 {
		t.Errorf("content %q mode %v", b, st.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*mcplint*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestUnifiedDiff(t *testing.T) {
	d := UnifiedDiff("a.py", []byte("x\ny\n"), []byte("x\nz\n"))
	for _, want := range []string{"--- a/a.py", "+++ b/a.py", "-y", "+z"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if UnifiedDiff("a.py", []byte("x"), []byte("x")) != "" {
		t.Error("diff of equal contents is not empty")
	}
}

// TestCreateFile covers fixes that create a file: planned from nothing,
// shared between findings, refused over an existing file, shown as a diff
// from /dev/null, and written only where nothing exists.
func TestCreateFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "taken.py")
	if err := os.WriteFile(existing, []byte("keep = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newPath := filepath.Join(dir, "guard.py")
	create := func(p string) rules.Fix {
		return rules.Fix{Applicability: rules.Unsafe, Edits: []rules.Edit{{Path: p, New: "x = 1\n", Create: true}}}
	}
	sub := filepath.Join(dir, "pkg.py")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	diags := []rules.Diagnostic{diag(create(newPath)), diag(create(newPath)), diag(create(existing)), diag(create(sub))}
	changes, skipped, err := Plan(diags, func(d *rules.Diagnostic) *rules.Fix { return &d.Fixes[0] }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || !changes[0].Created || string(changes[0].New) != "x = 1\n" || len(changes[0].Applied) != 2 {
		t.Fatalf("changes = %+v, want one created file shared by two findings", changes)
	}
	if len(skipped) != 2 || skipped[0].Index != 2 || skipped[1].Index != 3 || !strings.Contains(skipped[0].Reason, "never overwrites") {
		t.Errorf("skipped = %+v, want the fixes over the existing file and the directory refused", skipped)
	}
	o := &Outcome{Roots: []string{dir}, Files: []*FileResult{{Path: newPath, New: changes[0].New, Created: true}}}
	if d := Diffs(o); !strings.HasPrefix(d, "--- /dev/null\n+++ b/"+newPath+"\n@@ -0,0 +1 @@\n+x = 1\n") {
		t.Errorf("diff:\n%s", d)
	}
	if r := Write(o); len(r.Written) != 1 || len(r.NotWritten) != 0 {
		t.Fatalf("written %v, not written %v", r.Written, r.NotWritten)
	}
	if b, err := os.ReadFile(newPath); err != nil || string(b) != "x = 1\n" {
		t.Errorf("created file = %q, %v", b, err)
	}
	// The file now exists: writing the same outcome again must fail and
	// leave the file alone, as it must for any file that appeared meanwhile.
	o.Files[0].New = []byte("y = 2\n")
	if r := Write(o); len(r.Written) != 0 || len(r.NotWritten) != 1 || !strings.Contains(r.NotWritten[0].Reason, "exists") {
		t.Errorf("writing a created file over an existing one: written %v, not written %v", r.Written, r.NotWritten)
	}
	if b, _ := os.ReadFile(newPath); string(b) != "x = 1\n" {
		t.Errorf("existing file overwritten: %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*mcplint-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// FuzzPlan found both: a fix whose own edits overlap reached Apply, and an
// insertion at the start of another fix's replacement was applied after it;
// either made Apply slice backwards and panic.
func TestPlanOverlapsWithinAFixAndInsertionAtAReplacement(t *testing.T) {
	src := []byte("0123456789\n")
	read := func(string) ([]byte, error) { return src, nil }
	pick := func(d *rules.Diagnostic) *rules.Fix { return &d.Fixes[0] }
	diags := []rules.Diagnostic{
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 6, 6, "x"), edit("f.py", 5, 7, "")}}),
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 2, 4, "R")}}),
		diag(rules.Fix{Edits: []rules.Edit{edit("f.py", 2, 2, "I")}}),
	}
	changes, skipped, err := Plan(diags, pick, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Index != 0 || !strings.Contains(skipped[0].Reason, "own edits overlap") {
		t.Errorf("skipped %+v, want the first fix (its edits overlap)", skipped)
	}
	if len(changes) != 1 || string(changes[0].New) != "01IR456789\n" {
		t.Fatalf("changes %+v, want 01IR456789", changes)
	}
}

// A fix that creates a file (MCP001's guard module) in a folder whose name
// holds a newline or an escape sequence: --diff printed the name raw.
func TestNewFileDiffEscapesThePath(t *testing.T) {
	d := NewFileDiff("evil\n+++ b/x.py\x1b[2J/guard.py", []byte("x = 1\n"))
	if strings.Contains(d, "\x1b") || strings.Count("\n"+d, "\n+++ ") != 1 {
		t.Fatalf("the path reached the diff raw:\n%q", d)
	}
}
