package checkpoint

import "testing"

// Each case is a module whose line marked "# here" holds the await under
// test; covered is whether every path after it checkpoints.
var coveredCases = []struct {
	name    string
	src     string
	covered bool
}{
	{"last statement", `
import anyio
async def h():
    return await anyio.to_thread.run_sync(f)  # here
`, false},
	{"checkpoint after", `
import anyio
async def h():
    r = await anyio.to_thread.run_sync(f)  # here
    await anyio.lowlevel.checkpoint()
    return r
`, true},
}

func TestCovered(t *testing.T) {
	for _, c := range coveredCases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			n := marked(t, m)
			a := New(sameModule{})
			if got := a.Covered(m, m.FuncAt(n), n); got != c.covered {
				t.Errorf("Covered = %v, want %v\n%s", got, c.covered, c.src)
			}
		})
	}
}
