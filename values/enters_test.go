package values

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// TestEnters: a with statement runs its context manager's __aenter__ and
// __aexit__ (async) or __enter__ and __exit__, found through the MRO, for a
// constructor call, a name bound to an instance, or an attribute; a library
// context manager and a @contextmanager function's call run none.
func TestEnters(t *testing.T) {
	src := `import contextlib
import httpx
class Base:
    async def __aenter__(self): return self
    async def __aexit__(self, *a): pass
    def __enter__(self): return self
    def __exit__(self, *a): pass
class Child(Base):
    async def __aexit__(self, *a): pass
held = Child()
class Owner:
    def __init__(self):
        self.cm = Base()
    async def run(self):
        async with self.cm:
            pass
@contextlib.contextmanager
def opened():
    yield 1
async def main():
    async with Child() as c:
        pass
    async with held:
        pass
    with Base():
        pass
    async with httpx.AsyncClient() as h:
        pass
    with opened():
        pass
`
	m, err := pyast.Parse("a.py", "a", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := New([]*pyast.Module{m}, Config{})
	var got []string
	for s := range m.Nodes("with_statement") {
		async := pyast.HasChildKind(s, "async")
		for _, cm := range pyast.WithItems(s) {
			var names []string
			for _, r := range e.Enters(m, cm, async) {
				names = append(names, r.Func.Qual)
			}
			got = append(got, m.Text(cm)+": "+strings.Join(names, " "))
		}
	}
	want := []string{
		"self.cm: a.Base.__aenter__ a.Base.__aexit__",
		"Child(): a.Base.__aenter__ a.Child.__aexit__",
		"held: a.Base.__aenter__ a.Child.__aexit__",
		"Base(): a.Base.__enter__ a.Base.__exit__",
		"httpx.AsyncClient(): ",
		"opened(): ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCalleesCallableInstance: calling an instance runs its class's
// __call__ (found through the MRO); an instance without one runs nothing of
// the project.
func TestCalleesCallableInstance(t *testing.T) {
	src := `class Base:
    async def __call__(self, x): return x
class Reader(Base):
    pass
class Plain:
    pass
read = Reader()
plain = Plain()
read(1)
plain(2)
`
	m, err := pyast.Parse("a.py", "a", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := New([]*pyast.Module{m}, Config{})
	var got []string
	for call := range m.Nodes("call") {
		var names []string
		for _, r := range e.Callees(m, call) {
			names = append(names, r.Func.Qual)
		}
		got = append(got, m.Text(call)+": "+strings.Join(names, " "))
	}
	want := "Reader(): \nPlain(): \nread(1): a.Base.__call__\nplain(2): "
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
