package checkpoint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

const returnsSrc = `
import asyncio
import anyio
import contextlib
import httpx
client = httpx.AsyncClient()
CLOSED = False

async def close_confirmed(ctx):
    if ctx is None:
        return True
    confirmed = True
    try:
        await client.post("/close")
    except TimeoutError:
        confirmed = False
    except Exception:
        confirmed = False
    return confirmed

async def close_both(a, b):
    if a is None and b is None:
        return True
    confirmed = True
    if a is not None:
        try:
            await client.post("/a")
        except Exception:
            confirmed = False
    if b is not None:
        try:
            await asyncio.wait_for(client.post("/b"), timeout=5)
        except TimeoutError:
            confirmed = False
    return confirmed

async def computed_argument(a):
    if a is None:
        return True
    ok = True
    try:
        await client.post(url_of(a))
    except Exception:
        ok = False
    return ok

async def flag_unchecked(a):
    confirmed = True
    if a is None:
        confirmed = False
    else:
        await client.post("/a")
    return confirmed

async def false_without_await(ctx):
    if ctx is None:
        return False
    await client.post("/close")
    return True

async def unknown_value(ctx):
    if ctx is None:
        return ctx.ok
    await client.post("/close")
    return True

async def handler_first(ctx):
    try:
        sync_close(ctx)
    except Exception:
        return False
    await client.post("/close")
    return True

async def swallows_then_false(ctx):
    try:
        await client.post("/close")
    except BaseException:
        return False
    return True

async def falls_off(ctx):
    if ctx is None:
        return True
    await client.post("/close")

async def suppressed(ctx):
    with contextlib.suppress(Exception):
        sync_close(ctx)
        await client.post("/close")
        return True
    return False

async def param_returned(ok):
    if ok:
        return ok
    await client.post("/close")
    return False

async def augmented(ctx):
    n = 1
    n -= 1
    if ctx:
        return n
    await client.post("/close")
    return 1

async def shielded(ctx):
    if ctx is None:
        return True
    with anyio.CancelScope(shield=True):
        await client.post("/close")
    return False

async def wait_for_io(ctx):
    if ctx is None:
        return True
    await asyncio.wait_for(client.post("/close"), timeout=5)
    return False

async def wait_for_unknown(ctx):
    if ctx is None:
        return True
    await asyncio.wait_for(ctx.close(), timeout=5)
    return False

async def via_helper(ctx):
    if ctx is None:
        return "done"
    return await close_confirmed(ctx)

async def strings(ctx):
    if ctx is None:
        return "ok"
    await client.post("/close")
    return ""

async def returns_global():
    return CLOSED

async def recursive(ctx):
    if not await recursive(ctx.parent):
        return False
    await client.post("/close")
    return False
`

func TestReturnsChecked(t *testing.T) {
	m := parse(t, returnsSrc)
	// want[name] = {falsy returns checked, truthy returns checked}
	want := map[string][2]bool{
		"close_confirmed":     {true, false},
		"close_both":          {true, false},
		"computed_argument":   {false, false},
		"flag_unchecked":      {false, false},
		"false_without_await": {false, true},
		"unknown_value":       {false, false},
		"handler_first":       {false, true},
		"swallows_then_false": {false, true},
		"falls_off":           {true, false},
		"suppressed":          {false, true},
		"param_returned":      {false, false},
		"augmented":           {false, false},
		"shielded":            {false, false},
		"wait_for_io":         {true, false},
		"wait_for_unknown":    {false, false},
		"via_helper":          {false, false},
		"strings":             {true, false},
		"returns_global":      {false, false},
		"recursive":           {false, true},
	}
	an := New(sameModule{})
	for _, f := range m.Funcs {
		w, ok := want[f.Name]
		if !ok {
			t.Fatalf("no want for %s", f.Name)
		}
		if got := an.ReturnsChecked(m, f, false); got != w[0] {
			t.Errorf("ReturnsChecked(%s, falsy) = %v, want %v", f.Name, got, w[0])
		}
		if got := an.ReturnsChecked(m, f, true); got != w[1] {
			t.Errorf("ReturnsChecked(%s, truthy) = %v, want %v", f.Name, got, w[1])
		}
	}
	// Without a resolver nothing is known of a callee's values (the
	// question about a function itself still has an answer).
	if !New(nil).ReturnsChecked(m, m.Funcs[0], false) {
		t.Error("close_confirmed: the answer about the function itself needs no resolver")
	}
}

// The branch on an awaited result: the raise after `not await close()` is
// reached only on a falsy result, which close_confirmed gives only after a
// checkpoint.
func TestCoveredByReturnedValue(t *testing.T) {
	const head = returnsSrc + `
class Other(Exception):
    pass
`
	cases := []struct {
		name, body string
		want       bool
	}{
		{"not await", `
    except BaseException as exc:
        if not await close_both(ctx.a, ctx.b):
            raise Other() from exc
        raise
`, true},
		{"assigned then tested", `
    except BaseException as exc:
        closed = await close_confirmed(ctx)
        if not closed:
            raise Other() from exc
        raise
`, true},
		{"elif", `
    except BaseException as exc:
        if ctx.flag:
            raise
        elif not await close_confirmed(ctx):
            raise Other() from exc
        raise
`, true},
		{"truthy branch needs the truthy returns", `
    except BaseException as exc:
        if await close_confirmed(ctx):
            raise Other() from exc
        raise
`, false},
		{"a callee that can return False first", `
    except BaseException as exc:
        if not await false_without_await(ctx):
            raise Other() from exc
        raise
`, false},
		{"a condition on something else", `
    except BaseException as exc:
        await false_without_await(ctx)
        if not ctx.closed:
            raise Other() from exc
        raise
`, false},
		{"a statement between the await and the test", `
    except BaseException as exc:
        closed = await close_confirmed(ctx)
        log(closed)
        if not closed:
            raise Other() from exc
        raise
`, false},
		{"and in the condition", `
    except BaseException as exc:
        if not await close_confirmed(ctx) and ctx.strict:
            raise Other() from exc
        raise
`, false},
		{"under a shield", `
    except BaseException as exc:
        with anyio.CancelScope(shield=True):
            if not await close_confirmed(ctx):
                raise Other() from exc
        raise
`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, head+`
async def h(ctx):
    try:
        await client.get("/")`+c.body)
			fn := m.Funcs[len(m.Funcs)-1]
			try := firstOf(t, fn, "try_statement")
			clause := firstOf(t, fn, "except_clause")
			x := Extra{Ignore: try.ChildByFieldName("body"), Fail: func(s *pyast.Node) bool {
				return s.Kind() == "raise_statement" && s.NamedChildCount() > 0
			}}
			if got := New(sameModule{}).CoveredFrom(m, fn, lastBlock(clause), x); got != c.want {
				t.Errorf("CoveredFrom = %v, want %v", got, c.want)
			}
		})
	}
}

// A function with many returns of one tracked local: deciding the tracked
// names is one walk of the body, not one per return.
func BenchmarkReturnsCheckedManyReturns(b *testing.B) {
	var src strings.Builder
	src.WriteString("async def close(c):\n    x = False\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&src, "    if c == %d:\n        return x\n", i)
	}
	src.WriteString("    return x\n")
	m, err := pyast.Parse("many.py", "many", []byte(src.String()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		New(nil).ReturnsChecked(m, m.Funcs[0], false)
	}
}

// A try body whose first await is on a value that may be None: its
// AttributeError goes to the handler with no checkpoint before it.
func TestReturnsCheckedNoneReceiver(t *testing.T) {
	m := parse(t, `
from typing import Optional
import httpx

class S:
    def __init__(self):
        self.client: Optional[httpx.AsyncClient] = None
        self.other: httpx.AsyncClient = httpx.AsyncClient()

    async def close(self):
        try:
            await self.client.post("/close")
        except Exception:
            return False
        return True

    async def close_checked(self):
        try:
            await self.other.post("/close")
        except Exception:
            return False
        return True
`)
	an := New(sameModule{})
	for _, f := range m.Funcs {
		want := f.Name == "close_checked"
		if got := an.ReturnsChecked(m, f, false); got != want {
			t.Errorf("ReturnsChecked(%s, falsy) = %v, want %v", f.Name, got, want)
		}
	}
}
