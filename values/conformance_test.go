package values

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
	"github.com/rogpeppe/go-internal/txtar"
)

// The conformance table (docs/value-flow.md) has a row per language
// feature, each naming a fixture in testdata/conformance: Python files and,
// on the lines marked "#? expected", the values the expression of that line
// (an expression statement, or an assignment's value) must evaluate to. A
// row whose status is "supported" must resolve every query without an
// unknown; a row marked "unknown" must give the unknown its table says, so
// that what the engine cannot follow is tested as such, not skipped.

var tableRow = regexp.MustCompile("^\\| *([^|]+?) *\\| *`([a-z0-9_]+)` *\\| *(supported|unknown)[^|]*\\|")

type row struct {
	feature, fixture, status string
}

func readTable(t *testing.T) []row {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "docs", "value-flow.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for _, line := range strings.Split(string(src), "\n") {
		if m := tableRow.FindStringSubmatch(line); m != nil {
			rows = append(rows, row{m[1], m[2], m[3]})
		}
	}
	return rows
}

// parseFixture parses a fixture's files (module names from their paths).
func parseFixture(t *testing.T, ar *txtar.Archive) []*pyast.Module {
	t.Helper()
	var mods []*pyast.Module
	for _, f := range ar.Files {
		name := strings.TrimSuffix(strings.ReplaceAll(strings.TrimSuffix(f.Name, ".py"), "/", "."), ".__init__")
		m, err := pyast.Parse(f.Name, name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		if m.HasErrors() {
			t.Fatalf("%s: syntax error at %v", f.Name, m.Pos(int(m.FirstError().StartByte())))
		}
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods
}

// query is an expression of a fixture with the values it must have.
type query struct {
	m    *pyast.Module
	n    *pyast.Node
	line int
	want string
}

// queries finds the lines marked "#? want" and the expression of each.
func queries(t *testing.T, mods []*pyast.Module) []query {
	t.Helper()
	var out []query
	for _, m := range mods {
		for i := 1; i <= m.Lines.Lines(); i++ {
			text := m.Lines.LineText(i)
			k := strings.Index(text, "#?")
			if k < 0 {
				continue
			}
			start := m.Lines.LineStart(i)
			for start < len(m.Src) && (m.Src[start] == ' ' || m.Src[start] == '\t') {
				start++
			}
			n := m.Root.DescendantForByteRange(uint(start), uint(start))
			st := pyast.Statement(n)
			var expr *pyast.Node
			switch {
			case st == nil:
			case st.Kind() == "expression_statement":
				expr = st.NamedChild(0)
				if expr != nil && expr.Kind() == "assignment" {
					expr = pyast.AssignedValue(expr)
				}
			case st.Kind() == "return_statement":
				expr = pyast.ReturnValue(st)
			}
			if expr == nil {
				t.Fatalf("%s:%d: no expression for the query", m.Path, i)
			}
			out = append(out, query{m, expr, i, strings.TrimSpace(text[k+2:])})
		}
	}
	return out
}

func TestConformance(t *testing.T) {
	rows := readTable(t)
	if len(rows) < 40 {
		t.Fatalf("the table has %d rows", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.fixture] = true
		t.Run(r.fixture, func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join("testdata", "conformance", r.fixture+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			mods := parseFixture(t, ar)
			e := New(mods, Config{})
			qs := queries(t, mods)
			if len(qs) == 0 {
				t.Fatal("no queries")
			}
			unknowns := 0
			for _, q := range qs {
				got := e.Eval(q.m, q.n)
				for _, v := range got {
					if v.Kind == Unknown {
						unknowns++
						if r.status == "supported" {
							t.Errorf("%s:%d: %s: a supported row resolved to an unknown: %s", q.m.Path, q.line, q.m.Text(q.n), got)
						}
					}
				}
				if got.String() != q.want {
					t.Errorf("%s:%d: %s\n got: %s\nwant: %s", q.m.Path, q.line, q.m.Text(q.n), got, q.want)
				}
			}
			if r.status == "unknown" && unknowns == 0 {
				t.Errorf("row %q is marked unknown but resolved every query", r.feature)
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txtar"))
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".txtar"); !seen[name] {
			t.Errorf("fixture %s has no row in docs/value-flow.md", name)
		}
	}
}
