package checkpoint

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

func parse(t *testing.T, src string) *pyast.Module {
	t.Helper()
	m, err := pyast.Parse("app.py", "app", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.HasErrors() {
		t.Fatalf("syntax error in test source:\n%s", src)
	}
	return m
}

// sameModule resolves calls to functions of the module itself, like
// handlers.Index does across modules.
type sameModule struct{}

func (sameModule) Externals(*pyast.Module, *pyast.Node) []string { return nil }

func (sameModule) Callees(m *pyast.Module, call *pyast.Node) []Callee {
	names := m.Resolve(pyast.Callee(call))
	var out []Callee
	for _, f := range m.Funcs {
		for _, q := range names {
			if f.Qual == q {
				out = append(out, Callee{m, f})
			}
		}
	}
	return out
}

// marked returns the first await of an offload on the line carrying "# here"
// (or the async for / with statement there).
func marked(t *testing.T, m *pyast.Module) *pyast.Node {
	t.Helper()
	line := 0
	for i := 1; i <= m.Lines.Lines(); i++ {
		if strings.Contains(m.Lines.LineText(i), "# here") {
			line = i
			break
		}
	}
	if line == 0 {
		t.Fatal("no '# here' marker")
	}
	var found *pyast.Node
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if found != nil {
			return false
		}
		if m.Pos(int(n.StartByte())).Line != line {
			return true
		}
		if n.Kind() == "await" {
			if _, ok := Offload(m, n.NamedChild(0)); ok {
				found = n
				return false
			}
		}
		if n.Kind() == "for_statement" || n.Kind() == "with_statement" {
			found = n
			return false
		}
		return true
	})
	if found == nil {
		t.Fatalf("no await on line %d", line)
	}
	return found
}
