package checkpoint

import (
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// firstOf returns the first node of kind under fn's body.
func firstOf(t *testing.T, fn *pyast.Function, kind string) *pyast.Node {
	t.Helper()
	var found *pyast.Node
	pyast.Walk(fn.Body, func(n *pyast.Node) bool {
		if found == nil && n.Kind() == kind {
			found = n
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no %s", kind)
	}
	return found
}

func TestCoveredFrom(t *testing.T) {
	const loop = `
import asyncio
async def f(task):
    cancelled = False
    while True:
        try:
            r = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return r
`
	const jump = `
import anyio
async def f(items):
    for i in items:
        try:
            await anyio.sleep(1)
        finally:
            continue
    await anyio.sleep(0)
    return 1
`
	const after = `
import anyio
async def f():
    try:
        await anyio.sleep(1)
    except BaseException:
        pass
    if x:
        return 0
    await anyio.sleep(0)
`
	flagStop := func(m *pyast.Module) func(*pyast.Node) bool {
		return func(s *pyast.Node) bool {
			return s.Kind() == "if_statement" && m.Text(s.ChildByFieldName("condition")) == "cancelled"
		}
	}
	cases := []struct {
		name, src, from string
		ignoreTry, stop bool
		want            bool
	}{
		{"loop back into the try counts", loop, "except_clause", false, false, true},
		{"loop back into the ignored try", loop, "except_clause", true, false, false},
		{"flag statement stops", loop, "except_clause", true, true, true},
		{"continue in finally reaches a later checkpoint", jump, "continue_statement", true, false, true},
		{"an early return after the except", after, "except_clause", true, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			fn := m.Funcs[0]
			try := firstOf(t, fn, "try_statement")
			start := firstOf(t, fn, c.from)
			if c.from == "except_clause" {
				start = lastBlock(start)
			}
			var x Extra
			if c.ignoreTry {
				x.Ignore = try.ChildByFieldName("body")
			}
			if c.stop {
				x.Stop = flagStop(m)
			}
			if got := New(nil).CoveredFrom(m, fn, start, x); got != c.want {
				t.Errorf("CoveredFrom = %v, want %v", got, c.want)
			}
		})
	}
}
