package checkpoint

import (
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// awaitedCalls returns, in source order, the call (or async for / with
// statement) of each wait Waits finds in every function of m.
func waitsOf(m *pyast.Module) []Wait {
	var out []Wait
	for _, f := range m.Funcs {
		out = append(out, Waits(m, f)...)
	}
	return out
}

func TestOffloadForms(t *testing.T) {
	src := `
import anyio
import anyio.to_thread as t
from anyio import to_thread, to_process, to_interpreter
from anyio.to_thread import run_sync as rs
import functools
from functools import partial
from starlette.concurrency import run_in_threadpool, iterate_in_threadpool
import fastapi.concurrency as fc
from asyncer import asyncify
import asyncer
import asyncio, trio

alias = anyio.to_thread.run_sync

async def h(f, flag):
    await anyio.to_thread.run_sync(f)
    await t.run_sync(f, abandon_on_cancel=False)
    await to_thread.run_sync(f, abandon_on_cancel=True)
    await rs(f, cancellable=True)
    await rs(f, cancellable=None)
    await alias(f, abandon_on_cancel=flag)
    await to_process.run_sync(f)
    await to_process.run_sync(f, cancellable=True)
    await to_interpreter.run_sync(f)
    await run_in_threadpool(f, 1)
    await fc.run_in_threadpool(f)
    await asyncify(f)(1)
    await asyncer.asyncify(f, abandon_on_cancel=True)(1)
    g = asyncify(f)
    await g(2)
    await functools.partial(anyio.to_thread.run_sync, f)()
    p = partial(rs, f, abandon_on_cancel=True)
    await p()
    q = partial(to_process.run_sync, f)
    await q(cancellable=True)
    coro = anyio.to_thread.run_sync(f)
    await coro
    async for x in iterate_in_threadpool(it):
        pass
    async with fc.contextmanager_in_threadpool(cm) as v:
        pass
    await asyncio.to_thread(f)
    await trio.to_thread.run_sync(f)
    await asyncio.get_running_loop().run_in_executor(None, f)
    await asyncify(f)
    asyncify(f)
    await other.run_sync(f)
`
	want := []struct {
		fn          string
		cancellable bool
		keyword     string
	}{
		{"anyio.to_thread.run_sync", false, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", false, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", true, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", true, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", false, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", true, "abandon_on_cancel"}, // not a literal: trusted
		{"anyio.to_process.run_sync", false, "cancellable"},
		{"anyio.to_process.run_sync", true, "cancellable"},
		{"anyio.to_interpreter.run_sync", false, ""},
		{"starlette.concurrency.run_in_threadpool", false, ""},
		{"fastapi.concurrency.run_in_threadpool", false, ""},
		{"asyncer.asyncify", false, "abandon_on_cancel"},
		{"asyncer.asyncify", true, "abandon_on_cancel"},
		{"asyncer.asyncify", false, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", false, "abandon_on_cancel"},
		{"anyio.to_thread.run_sync", true, "abandon_on_cancel"},
		{"anyio.to_process.run_sync", true, "cancellable"},
		{"anyio.to_thread.run_sync", false, "abandon_on_cancel"},
		{"starlette.concurrency.iterate_in_threadpool", false, ""},
		{"fastapi.concurrency.contextmanager_in_threadpool", false, ""},
		// trio's default is abandon_on_cancel=False (trio 0.34.0
		// src/trio/_threads.py:261): it waits like anyio's.
		{"trio.to_thread.run_sync", false, "abandon_on_cancel"},
	}
	m := parse(t, src)
	got := waitsOf(m)
	if len(got) != len(want) {
		for _, w := range got {
			t.Logf("found %s at line %d", w.Offload.Func, m.Pos(int(w.At.StartByte())).Line)
		}
		t.Fatalf("found %d waits, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i].Offload
		line := m.Pos(int(got[i].At.StartByte())).Line
		if g.Func != w.fn || g.Cancellable != w.cancellable || g.Keyword != w.keyword {
			t.Errorf("line %d: got %s cancellable=%v keyword=%q, want %s %v %q", line, g.Func, g.Cancellable, g.Keyword, w.fn, w.cancellable, w.keyword)
		}
	}
}

func TestOffloadKeywordCall(t *testing.T) {
	m := parse(t, `
import anyio, functools
from asyncer import asyncify
async def h(f):
    await asyncify(f)(1)
    await functools.partial(anyio.to_thread.run_sync, f)()
    await anyio.to_thread.run_sync(f, abandon_on_cancel=False)
`)
	ws := waitsOf(m)
	want := []string{"asyncify(f)", "functools.partial(anyio.to_thread.run_sync, f)", "anyio.to_thread.run_sync(f, abandon_on_cancel=False)"}
	for i, w := range ws {
		if got := m.Text(w.Offload.KeywordCall); got != want[i] {
			t.Errorf("wait %d: KeywordCall %q, want %q", i, got, want[i])
		}
	}
	if ka := ws[2].Offload.KeywordArg; ka == nil || m.Text(ka) != "abandon_on_cancel=False" {
		t.Errorf("KeywordArg = %v", ka)
	}
}

func TestAlwaysCheckpoints(t *testing.T) {
	m := parse(t, `
import anyio
import asyncio
async def yes(ctx):
    await ctx.info("x")
async def via(ctx):
    if ctx:
        await yes(ctx)
    else:
        await anyio.sleep(0)
async def early(ctx):
    if ctx:
        return 1
    await ctx.info("x")
async def raises(ctx):
    if ctx:
        raise ValueError()
    await ctx.info("x")
async def a(n):
    return await b(n)
async def b(n):
    return await a(n)
def sync(ctx):
    pass
async def swallows(task):
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                return task.result()
async def reraises(ctx):
    try:
        await ctx.info("x")
    except BaseException:
        raise
async def other_errors(ctx):
    try:
        await ctx.info("x")
    except Exception:
        return None
`)
	want := map[string]bool{"yes": true, "via": true, "early": false, "raises": true, "a": false, "b": false, "sync": false,
		"swallows": false, "reraises": true, "other_errors": true}
	an := New(sameModule{})
	for _, f := range m.Funcs {
		if got := an.AlwaysCheckpoints(m, f); got != want[f.Name] {
			t.Errorf("AlwaysCheckpoints(%s) = %v, want %v", f.Name, got, want[f.Name])
		}
	}
	// Without a resolver, project functions are never checkpoints.
	if New(nil).AlwaysCheckpoints(m, m.Funcs[1]) {
		t.Error("via checkpoints without a resolver")
	}
}
