package values

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestAside checks that the calls, mutations and stores of modules set
// aside (a project's tests) do not flow into other code's values, and do
// without Aside.
func TestAside(t *testing.T) {
	ar := txtar.Parse([]byte(`-- app.py --
REG = []
def run(h):
    h  #? func app.real
class Box: pass
box = Box()
def real(): pass
run(real)
for r in REG:
    r  #? func app.real
box.x  #? func app.real
REG.append(real)
box.x = real
-- tests/test_app.py --
import app
def fake(): pass
app.run(fake)
app.REG.append(fake)
app.box.x = fake
`))
	mods := parseFixture(t, ar)
	for _, aside := range []bool{true, false} {
		cfg := Config{}
		if aside {
			cfg.Aside = func(m *pyast.Module) bool { return strings.HasPrefix(m.Path, "tests/") }
		}
		e := New(mods, cfg)
		for _, q := range queries(t, mods) {
			want := q.want
			if !aside {
				want = "func app.real | func tests.test_app.fake"
			}
			if got := e.Eval(q.m, q.n).String(); got != want {
				t.Errorf("aside %v: %s:%d: %s: got %s, want %s", aside, q.m.Path, q.line, q.m.Text(q.n), got, want)
			}
		}
	}
}
