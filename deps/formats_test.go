package deps

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/deps/*/want.golden")

// loadDir loads every file of a fixture folder as one project.
func loadDir(t *testing.T, dir string) (*Project, []error) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && e.Name() != "want.golden" {
			files = append(files, path.Join(filepath.ToSlash(dir), e.Name()))
		}
	}
	sort.Strings(files)
	return Load(dir, files, Options{AllRequirements: true})
}

// dump describes what a project read: every requirement with its position,
// the exact text of its span and of its version span, then the errors, then
// the resolution of mcp, fastmcp and anyio.
func dump(p *Project, errs []error) string {
	var b strings.Builder
	for _, r := range p.Requirements() {
		f := p.File(r.Path)
		pos, end := f.Lines.Position(r.Start), f.Lines.Position(r.End)
		ver := "-"
		if r.VersionStart >= 0 {
			ver = fmt.Sprintf("%d-%d %q", r.VersionStart, r.VersionEnd, f.Src[r.VersionStart:r.VersionEnd])
		}
		fmt.Fprintf(&b, "%s:%d:%d-%d:%d [%d-%d] %s %q\n", path.Base(r.Path), pos.Line, pos.Column, end.Line, end.Column, r.Start, r.End, r.Name, f.Src[r.Start:r.End])
		fmt.Fprintf(&b, "\tversion=%s spec=%q extras=%v marker=%q url=%q\n", ver, r.Specifier, r.Extras, r.Marker, r.URL)
		fmt.Fprintf(&b, "\tlocked=%v version=%q group=%q section=%q constraint=%v editable=%v unknown=%v set=%s\n",
			r.Locked, r.Version, r.Group, r.Section, r.Constraint, r.Editable, r.Unknown, r.Set)
	}
	for _, err := range errs {
		fe, ok := err.(*FileError)
		if !ok {
			fmt.Fprintf(&b, "error (not a FileError): %v\n", err)
			continue
		}
		fmt.Fprintf(&b, "error %s:%d:%d @%d: %s\n", path.Base(fe.Path), fe.Line, fe.Column, fe.Offset, fe.Msg)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note %s\n", path.Base(n))
	}
	for _, pkg := range []string{"mcp", "fastmcp", "anyio"} {
		fmt.Fprintf(&b, "%s: %s\n", pkg, p.Describe(pkg))
	}
	fmt.Fprintf(&b, "MCP1=%s FastMCP3=%s anyio<4.1=%s\n", p.MCP1(), p.FastMCP3(), p.AnyioAdmits("", "4.1"))
	return b.String()
}

// TestFormats checks each fixture folder of testdata/deps against its
// want.golden (go test -update rewrites them; review the diff).
func TestFormats(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/deps/*")
	more, _ := filepath.Glob("../testdata/deps/malformed/*")
	dirs = append(dirs, more...)
	n := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || strings.HasSuffix(dir, "/malformed") || strings.HasSuffix(dir, "/script") {
			continue
		}
		n++
		t.Run(strings.TrimPrefix(filepath.ToSlash(dir), "../testdata/deps/"), func(t *testing.T) {
			p, errs := loadDir(t, dir)
			checkGolden(t, filepath.Join(dir, "want.golden"), dump(p, errs))
		})
	}
	if n < 10 {
		t.Fatalf("only %d fixture folders", n)
	}
}

func TestScriptBlock(t *testing.T) {
	file := "../testdata/deps/script/tool.py"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !HasScriptBlock(src) || HasScriptBlock([]byte("# /// pyproject\n# x = 1\n# ///\n")) || HasScriptBlock([]byte("import mcp\n")) {
		t.Fatal("HasScriptBlock")
	}
	p, errs := LoadScript(file, src, Options{AllRequirements: true})
	checkGolden(t, "../testdata/deps/script/want.golden", dump(p, errs))
	two := append(append([]byte(nil), src...), src...)
	if _, errs := LoadScript("x.py", two, Options{}); len(errs) != 1 {
		t.Errorf("two script blocks: want one error, got %v", errs)
	}
}

func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("missing %s (go test -update):\n%s", golden, got)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("%s differs; got:\n%s", golden, got)
	}
}

// Broken files give FileErrors at a position, and the other files are read.
func TestMalformed(t *testing.T) {
	for _, c := range []struct {
		dir, file string
		line      int
		msg       string
		reqs      int
	}{
		{"toml", "pyproject.toml", 3, "invalid TOML", 0},
		{"line", "requirements.txt", 2, "invalid requirement", 1},
		{"missing", "requirements.txt", 2, "cannot read the included file", 1},
		{"cycle", "requirements.txt", 1, "include cycle", 2},
		{"json", "Pipfile.lock", 1, "invalid JSON", 1},
		// a table really defined twice within one [[package]] element
		{"duptable", "uv.lock", 28, "invalid TOML: table [package.optional-dependencies] defined twice", 1},
		// a lock entry without a usable version is an error, not "any
		// version" (which resolved to the newest release and hid findings)
		{"lockentry-poetry", "poetry.lock", 2, `lock entry for "mcp" has no version: ignored`, 3},
		{"lockentry-pylock", "pylock.toml", 6, `lock entry for "mcp": the version is not a string`, 1},
		{"lockentry-pipfile", "Pipfile.lock", 4, `lock entry for "mcp" has no version`, 1},
		{"lockentry-uv", "uv.lock", 8, `lock entry for "mcp" has no version`, 2},
		{"lockentry-pdm", "pdm.lock", 6, `lock entry for "mcp": the version is not a string`, 1},
	} {
		p, errs := loadDir(t, "../testdata/deps/malformed/"+c.dir)
		if len(errs) == 0 {
			t.Errorf("%s: no error", c.dir)
			continue
		}
		fe, ok := errs[0].(*FileError)
		if !ok || path.Base(fe.Path) != c.file || fe.Line != c.line || !strings.Contains(fe.Msg, c.msg) || fe.Column < 1 {
			t.Errorf("%s: got %#v", c.dir, errs[0])
		}
		if len(p.Requirements()) != c.reqs {
			t.Errorf("%s: %d requirements read, want %d", c.dir, len(p.Requirements()), c.reqs)
		}
		if strings.HasPrefix(c.dir, "lockentry-") && (p.MCP1() != Yes || p.MCPAdmits("2.0.0", "") != No) {
			t.Errorf("%s: the declared mcp>=1.10,<2 must decide: %s", c.dir, p.Describe("mcp"))
		}
	}
	p, errs := Load(".", []string{"../testdata/deps/does-not-exist/requirements.txt"}, Options{})
	if len(errs) != 1 || p == nil {
		t.Errorf("unreadable file: %v", errs)
	}
}

// A PEP 723 block on the first line of a file that starts with a UTF-8 byte
// order mark is still the script's metadata, and the requirement's span
// points into the file (after the BOM).
func TestScriptBlockAfterBOM(t *testing.T) {
	src := []byte("\ufeff# /// script\n# dependencies = [\"mcp>=1.24,<2\"]\n# ///\nimport mcp\n")
	if !HasScriptBlock(src) {
		t.Fatal("the block after the BOM is not recognised")
	}
	p, errs := LoadScript("tool.py", src, Options{})
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := p.MCP1(); got != Yes {
		t.Fatalf("MCP1() = %v, want yes (mcp>=1.24,<2)", got)
	}
	if r := p.Resolution("mcp"); r == nil || !r.Known {
		t.Fatalf("mcp not resolved: %+v", r)
	}
	if !strings.Contains(string(src[p.reqs[0].Start:p.reqs[0].End]), "mcp>=1.24,<2") {
		t.Fatalf("requirement span %d:%d is %q", p.reqs[0].Start, p.reqs[0].End, src[p.reqs[0].Start:p.reqs[0].End])
	}
}
