package deps

import (
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// plain turns a parsed tree into maps, slices and strings, the shape
// go-toml's own decoder gives, so the two can be compared.
func plain(v *tval) any {
	switch {
	case v.tbl != nil:
		m := map[string]any{}
		for _, k := range v.tbl.keys {
			m[k] = plain(v.tbl.m[k])
		}
		return m
	case v.kind() == unstable.Array:
		s := []any{}
		for i := range v.arr {
			s = append(s, plain(&v.arr[i]))
		}
		return s
	case v.kind() == unstable.String:
		return v.str
	}
	return scalar
}

// scalar stands for any value other than a string, table or array: the
// trees are compared by shape and strings.
const scalar = "<scalar>"

// plainRef decodes src with go-toml's decoder, in the shape of plain.
func plainRef(src string) (any, error) {
	var m map[string]any
	if err := toml.Unmarshal([]byte(src), &m); err != nil {
		return nil, err
	}
	var norm func(any) any
	norm = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				x[k] = norm(v)
			}
			return x
		case []any:
			for i, v := range x {
				x[i] = norm(v)
			}
			return x
		case []map[string]any:
			s := []any{}
			for _, v := range x {
				s = append(s, norm(v))
			}
			return s
		case string:
			return x
		}
		return scalar
	}
	return norm(m), nil
}

func parsePlain(t *testing.T, src string) any {
	t.Helper()
	root, err := parseTOML("x.toml", []byte(src))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return plain(&tval{tbl: root})
}

// Valid documents: the tree equals what go-toml's decoder reads.
func TestTOMLTables(t *testing.T) {
	for _, src := range []string{
		// D1: a sub-table per element of an array of tables
		"[[package]]\nname = \"a\"\n[package.optional-dependencies]\nx = []\n[[package]]\nname = \"b\"\n[package.optional-dependencies]\ny = []\n",
		// [[a.b]] appends to the array in the last element of a
		"[[package]]\nname = \"a\"\n[[package.wheels]]\nurl = \"1\"\n[[package.wheels]]\nurl = \"2\"\n[[package]]\nname = \"b\"\n[[package.wheels]]\nurl = \"3\"\n",
		// nested: [a.b.c] inside the element, then the element's [a.b]
		"[[package]]\n[package.metadata.requires-dev]\ndev = []\n[package.metadata]\nrequires-dist = []\n[[package]]\n[package.metadata]\n[package.metadata.requires-dev]\n",
		// arrays of tables inside arrays of tables
		"[[a]]\n[[a.b]]\n[a.b.c]\nx = 1\n[[a.b]]\n[a.b.c]\nx = 2\n[[a]]\n[[a.b]]\n[a.b.c]\nx = 3\n",
		// an implicit table defined later
		"[a.b.c]\nx = 1\n[a.b]\ny = 2\n[a]\nz = 3\n",
		// a header adds a sub-table to a table made by dotted keys
		"[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n",
		// dotted keys in an element and in an inline table
		"[[p]]\nsource.registry = \"x\"\nsource.url = \"y\"\n[[p]]\nsource = { a.b = 1, a.c = 2 }\n",
		"[a]\n[b]\n[a.x]\n[b.x]\n",
	} {
		want, err := plainRef(src)
		if err != nil {
			t.Fatalf("go-toml rejects %q: %v", src, err)
		}
		if got := parsePlain(t, src); !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", src, got, want)
		}
	}
}

// Invalid documents: an error at the line of the offending header or key.
func TestTOMLRedefinition(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		msg  string
	}{
		{"[[package]]\nname = \"a\"\n[package.extras]\n[[package]]\nname = \"b\"\n[package.extras]\nx = []\n[package.extras]\n", 8, "table [package.extras] defined twice"},
		{"[[package]]\n[package.metadata]\n[package.metadata.requires-dev]\n[package.metadata.requires-dev]\n", 4, "table [package.metadata.requires-dev] defined twice"},
		{"[a]\nx = 1\n[b]\n[a]\n", 4, "table [a] defined twice"},
		{"[a.b]\n[a]\n[a.b]\n", 3, "table [a.b] defined twice"},
		{"[a]\nb.c = 1\n[a.b]\n", 3, "table [a.b] defined twice"},
		{"[a]\nb = {}\n[a.b]\n", 3, "table [a.b] defined twice"},
		{"[a]\nb = { c = 1 }\n[a.b.d]\n", 3, "inline table \"b\" cannot be extended"},
		{"x = { a = 1 }\nx.b = 2\n", 2, "cannot be extended with dotted keys"},
		{"[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n", 4, "cannot be extended with dotted keys"},
		{"[a.b]\n[a]\nb = 1\n", 3, "key \"b\" defined twice"},
		{"[[a]]\n[a]\n", 2, "key \"a\" redefined as a table"},
		{"[a]\n[[a]]\n", 2, "key \"a\" redefined as an array of tables"},
		{"a = [{ b = 1 }]\n[[a]]\n", 2, "redefined as an array of tables"},
		{"a = [{ b = 1 }]\n[a.c]\n", 2, "key \"a\" is not a table"},
		{"a = 1\n[a.b]\n", 2, "key \"a\" is not a table"},
		{"[[package]]\nname = \"a\"\nname = \"b\"\n", 3, "key \"name\" defined twice"},
	} {
		_, err := parseTOML("x.toml", []byte(c.src))
		fe, ok := err.(*FileError)
		if !ok {
			t.Errorf("%q: got %v, want a FileError", c.src, err)
			continue
		}
		line := 1 + strings.Count(c.src[:fe.Offset], "\n")
		if line != c.line || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%q: got line %d %q, want line %d %q", c.src, line, fe.Msg, c.line, c.msg)
		}
		if _, err := plainRef(c.src); err == nil {
			t.Errorf("%q: go-toml accepts it", c.src)
		}
	}
}

// In real-shaped lock files where every package has its own sub-tables,
// mcp, fastmcp and anyio are read with the span of their version
// key-value and of the version string.
func TestLockSubtables(t *testing.T) {
	for _, c := range []struct {
		dir, file  string
		quote      string
		mcp, fm, a string // versions
		lines      [3]int // lines of the version key-values
	}{
		{"uvlock-subtables", "uv.lock", `"`, "1.25.0", "2.12.4", "4.9.0", [3]int{115, 95, 20}},
		{"poetrylock-subtables", "poetry.lock", `"`, "1.9.4", "2.3.0", "4.5.2", [3]int{68, 30, 5}},
		{"pdmlock-subtables", "pdm.lock", `"`, "1.20.0", "2.8.1", "4.8.0", [3]int{64, 49, 15}},
		{"pylock-subtables", "pylock.toml", `'`, "1.26.0", "2.12.4", "4.9.0", [3]int{60, 45, 11}},
	} {
		p, errs := loadDir(t, "../testdata/deps/"+c.dir)
		if len(errs) > 0 {
			t.Errorf("%s: %v", c.dir, errs)
			continue
		}
		got := map[string]*Requirement{}
		for _, r := range p.Requirements() {
			got[r.Name] = r
		}
		for i, name := range []string{"mcp", "fastmcp", "anyio"} {
			ver := []string{c.mcp, c.fm, c.a}[i]
			r := got[name]
			if r == nil {
				t.Errorf("%s: %s not read", c.dir, name)
				continue
			}
			f := p.File(r.Path)
			if path.Base(r.Path) != c.file || !r.Locked || r.Version != ver {
				t.Errorf("%s: %s: got %s locked=%v version %q", c.dir, name, r.Path, r.Locked, r.Version)
			}
			if kv := string(f.Src[r.Start:r.End]); kv != "version = "+c.quote+ver+c.quote {
				t.Errorf("%s: %s: span %q", c.dir, name, kv)
			}
			if r.VersionStart < 0 || string(f.Src[r.VersionStart:r.VersionEnd]) != ver {
				t.Errorf("%s: %s: version span %d-%d", c.dir, name, r.VersionStart, r.VersionEnd)
			}
			if pos := f.Lines.Position(r.Start); pos.Line != c.lines[i] || pos.Column != 1 {
				t.Errorf("%s: %s at %d:%d, want %d:1", c.dir, name, pos.Line, pos.Column, c.lines[i])
			}
		}
		// the project itself (editable or virtual) is not a locked dependency
		if got["demo"] != nil || got["demo-tools"] != nil {
			t.Errorf("%s: the project itself was read as a dependency", c.dir)
		}
	}
}

// FuzzTOML compares the tree with go-toml's decoder: a document one
// accepts and the other rejects, or read differently, is a bug in the
// table rules (go test -fuzz=FuzzTOML -fuzztime=60s ./deps/).
func FuzzTOML(f *testing.F) {
	for _, s := range []string{
		"[[package]]\nname = \"a\"\n[package.optional-dependencies]\nx = []\n[[package]]\nname = \"b\"\n[package.optional-dependencies]\ny = []\n",
		"[[a]]\n[[a.b]]\n[a.b.c]\nx = 1\n[[a]]\n[a.b]\n",
		"[a.b.c]\n[a.b]\n[a]\nb.d = 1\n",
		"[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\n[fruit.apple]\n",
		"x = { a = 1 }\n[x.b]\ny = [{}]\n[[y]]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		root, err := parseTOML("x.toml", []byte(src))
		want, werr := plainRef(src)
		if err != nil || werr != nil {
			// go-toml reports some documents that its parser reads
			// (e.g. a bad date) only when decoding: compare only the
			// table rules, where both must reject.
			if err == nil && strings.Contains(werr.Error(), "already") {
				t.Fatalf("%q: accepted, but go-toml says %v", src, werr)
			}
			return
		}
		if got := plain(&tval{tbl: root}); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", src, got, want)
		}
	})
}
