package deps

import (
	"fmt"
	"testing"
)

// countParses counts the TOML parses of the Parsed caches.
func countParses(t *testing.T) *int {
	t.Helper()
	n := 0
	t.Cleanup(func() { parse = parseTOML })
	parse = func(p string, src []byte) (*ttable, error) {
		n++
		return parseTOML(p, src)
	}
	return &n
}

// A manifest that the project model read (ReadManifest) is not parsed
// again by the project's load, nor by a second load; other bytes at the
// same path (an overlay) are.
func TestParsedParsesOnce(t *testing.T) {
	src := []byte("[project]\nname = \"a\"\ndependencies = [\"mcp>=1.2\"]\n\n[project.scripts]\na = \"app.cli:main\"\n\n[tool.uv.workspace]\nmembers = [\"packages/*\"]\n")
	files := map[string][]byte{"a/pyproject.toml": src}
	read := func(p string) ([]byte, error) {
		if b, ok := files[p]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("%s: no such file", p)
	}
	parses := countParses(t)
	c := &Parsed{}
	m, ok := c.ReadManifest("a/pyproject.toml", src)
	if !ok || len(m.Workspaces) != 1 || len(m.EntryPackages) != 1 || m.EntryPackages[0] != "app" {
		t.Fatalf("manifest %+v, %v", m, ok)
	}
	if again, _ := c.ReadManifest("a/pyproject.toml", src); fmt.Sprint(again) != fmt.Sprint(m) {
		t.Errorf("manifest read again %+v, want %+v", again, m)
	}
	for i := 0; i < 2; i++ {
		p, errs := Load("a", []string{"a/pyproject.toml"}, Options{ReadFile: read, Parsed: c, NoStyle: true})
		if len(errs) > 0 || p.Describe("mcp") != "mcp >=1.2 in pyproject.toml" {
			t.Fatalf("load %d: %q, errors %v", i, p.Describe("mcp"), errs)
		}
	}
	if *parses != 1 {
		t.Errorf("%d parses of one manifest, want 1", *parses)
	}
	files["a/pyproject.toml"] = []byte("[project]\nname = \"a\"\ndependencies = [\"mcp>=2\"]\n")
	p, _ := Load("a", []string{"a/pyproject.toml"}, Options{ReadFile: read, Parsed: c, NoStyle: true})
	if got := p.Describe("mcp"); got != "mcp >=2 in pyproject.toml" || *parses != 2 {
		t.Errorf("other bytes: %q after %d parses, want mcp >=2 parsed anew", got, *parses)
	}
}

// The error of a manifest that is not TOML is the same for each load that
// takes it from the cache, and each load gets its own copy: a load
// completes its errors in place (their lines, their quoted messages), and
// projects load in parallel.
func TestParsedErrorIsCopied(t *testing.T) {
	src := []byte("[project]\nname = \"a\"\nname = \"b\"\n")
	read := func(string) ([]byte, error) { return src, nil }
	c := &Parsed{}
	var msgs []string
	var got []error
	for i := 0; i < 2; i++ {
		_, errs := Load("a", []string{"a/pyproject.toml"}, Options{ReadFile: read, Parsed: c, NoStyle: true})
		if len(errs) != 1 {
			t.Fatalf("load %d: errors %v, want one", i, errs)
		}
		msgs = append(msgs, errs[0].Error())
		got = append(got, errs[0])
	}
	if got[0] == got[1] {
		t.Errorf("two loads share one error value")
	}
	_, plain := Load("a", []string{"a/pyproject.toml"}, Options{ReadFile: read, NoStyle: true})
	if msgs[0] != plain[0].Error() || msgs[1] != plain[0].Error() {
		t.Errorf("errors %q, want %q each time", msgs, plain[0].Error())
	}
}
