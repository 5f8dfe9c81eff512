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
	{"checkpoint_if_cancelled after, no return", `
from anyio.lowlevel import checkpoint_if_cancelled as cic
import anyio
async def h():
    await anyio.to_thread.run_sync(f)  # here
    await cic()
`, true},
	{"cancel_shielded_checkpoint is not one", `
import anyio
async def h():
    await anyio.to_thread.run_sync(f)  # here
    await anyio.lowlevel.cancel_shielded_checkpoint()
`, false},
	{"sleep variants", `
import anyio, asyncio, trio
async def h():
    await anyio.to_thread.run_sync(f)  # here
    await asyncio.sleep(0)
`, true},
	{"later offload", `
import anyio
async def h():
    a = await anyio.to_thread.run_sync(f)  # here
    b = await anyio.to_thread.run_sync(g)
    return b
`, true},
	{"unknown coroutine is not a checkpoint", `
import anyio
async def h():
    a = await anyio.to_thread.run_sync(f)  # here
    return await somewhere.thing()
`, false},
	{"ctx typed", `
import anyio
from mcp.server.fastmcp import Context
async def h(c: Context):
    a = await anyio.to_thread.run_sync(f)  # here
    await c.info("done")
    return a
`, true},
	{"ctx untyped param", `
import anyio
async def h(ctx):
    a = await anyio.to_thread.run_sync(f)  # here
    await ctx.report_progress(1, 1)
    return a
`, true},
	{"ctx typed as something else", `
import anyio
from mylib import Context
async def h(ctx: Context):
    a = await anyio.to_thread.run_sync(f)  # here
    await ctx.info("x")
    return a
`, false},
	{"session send", `
import anyio
async def h(ctx):
    a = await anyio.to_thread.run_sync(f)  # here
    await ctx.request_context.session.send_log_message(level="info", data="x")
    return a
`, true},
	{"httpx client", `
import anyio, httpx
async def h():
    a = await anyio.to_thread.run_sync(f)  # here
    async with httpx.AsyncClient() as client:
        await client.post("http://x", json=a)
    return a
`, true},
	{"checkpoint inside expression after", `
import anyio
async def h(ctx):
    await ctx.info(str(await anyio.to_thread.run_sync(f)))  # here
`, true},
	{"checkpoint earlier in the same statement", `
import anyio
async def h(ctx):
    x = (await ctx.info("a"), await anyio.to_thread.run_sync(f))  # here
`, false},
	{"conditional await does not count", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    x = c and await ctx.info("x")
    y = await ctx.info("y") if c else None
    return a
`, false},
	{"condition of a conditional expression counts", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    y = 1 if await ctx.info("y") else 2
    return a
`, true},
	{"lambda and comprehension do not count", `
import anyio
async def h(ctx):
    a = await anyio.to_thread.run_sync(f)  # here
    g = lambda: ctx.info("x")
    xs = [await ctx.info(i) for i in range(3)]
    return a
`, false},
	{"if without else", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    if c:
        await ctx.info("x")
    return a
`, false},
	{"if with else both checkpoint", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    if c:
        await ctx.info("x")
    elif d:
        await anyio.sleep(0)
    else:
        await ctx.debug("y")
    return a
`, true},
	{"elif branch misses", `
import anyio
async def h(ctx, c, d):
    a = await anyio.to_thread.run_sync(f)  # here
    if c:
        await ctx.info("x")
    elif d:
        pass
    else:
        await ctx.debug("y")
    return a
`, false},
	{"if condition checkpoints", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    if await ctx.info("x"):
        return 1
    return a
`, true},
	{"early return before checkpoint", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    if a:
        return a
    await ctx.info("x")
    return None
`, false},
	{"early raise of another exception ends the handler", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    if not a:
        raise ValueError("x")
    await ctx.info("x")
    return a
`, false},
	{"raise after a checkpoint", `
import anyio
async def h(ctx, c):
    a = await anyio.to_thread.run_sync(f)  # here
    await ctx.info("x")
    if not a:
        raise ValueError("x")
    return a
`, true},
	{"raise caught by the same try, handler checkpoints", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise KeyError("x")
        await ctx.info("ok")
    except (KeyError, ValueError):
        await anyio.sleep(0)
        return None
    return r
`, true},
	{"raise of a class the try does not name goes on past it", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise RuntimeError("x")
        await ctx.info("ok")
    except KeyError:
        await anyio.sleep(0)
        return None
    return r
`, false},
	{"raise into except Exception that checkpoints", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise RuntimeError("x")
        await ctx.info("ok")
    except Exception:
        await ctx.error("bad")
        raise
    return r
`, true},
	{"bare raise re-raising what except TimeoutError caught is another exception", `
import anyio, asyncio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise asyncio.TimeoutError()
        await ctx.info("ok")
    except asyncio.TimeoutError:
        raise
    return r
`, false},
	{"raise of the cancellation class", `
import anyio, asyncio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    if not r:
        raise asyncio.CancelledError()
    await ctx.info("ok")
    return r
`, true},
	{"raise of anyio's cancellation class through a name", `
import anyio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    exc = anyio.get_cancelled_exc_class()
    if not r:
        raise exc()
    await ctx.info("ok")
    return r
`, true},
	{"helper raising unchecked", `
import anyio
async def check(r):
    if not r:
        raise ValueError("x")
    await anyio.sleep(0)
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    await check(r)
    return r
`, false},
	{"helper raising after its checkpoint", `
import anyio
async def check(r):
    await anyio.sleep(0)
    if not r:
        raise ValueError("x")
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    await check(r)
    return r
`, true},
	{"helper raising into a handler that checkpoints", `
import anyio
async def check(r):
    if not r:
        raise ValueError("x")
    await anyio.sleep(0)
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    try:
        await check(r)
    except Exception:
        await ctx.info("bad")
        return None
    return r
`, true},
	{"helper raising in the same statement", `
import anyio
async def check(r):
    if not r:
        raise ValueError("x")
    await anyio.sleep(0)
    return r
async def h(ctx):
    return await check(await anyio.to_thread.run_sync(f))  # here
`, false},
	{"inside if: rest of branch then after", `
import anyio
async def h(ctx, c):
    if c:
        a = await anyio.to_thread.run_sync(f)  # here
    else:
        a = 1
    await ctx.info("x")
    return a
`, true},
	{"in loop: last iteration exits", `
import anyio
async def h(items):
    out = []
    for i in items:
        out.append(await anyio.to_thread.run_sync(f, i))  # here
    return out
`, false},
	{"in loop with checkpoint after the loop", `
import anyio
async def h(items):
    out = []
    for i in items:
        out.append(await anyio.to_thread.run_sync(f, i))  # here
    await anyio.sleep(0)
    return out
`, true},
	{"in loop, checkpoint in body after", `
import anyio
async def h(ctx, items):
    for i in items:
        await anyio.to_thread.run_sync(f, i)  # here
        await ctx.info("step")
`, true},
	{"break skips the checkpoint", `
import anyio
async def h(ctx, items):
    for i in items:
        r = await anyio.to_thread.run_sync(f, i)  # here
        if r:
            break
        await ctx.info("step")
    return r
`, false},
	{"continue goes round: for may end", `
import anyio
async def h(ctx, items):
    for i in items:
        r = await anyio.to_thread.run_sync(f, i)  # here
        if r:
            continue
        await ctx.info("step")
`, false},
	{"while True: only break leaves", `
import anyio
async def h(ctx):
    while True:
        r = await anyio.to_thread.run_sync(f)  # here
        await ctx.info("polled")
        if r:
            break
    return r
`, true},
	{"while 1: only break leaves", `
import anyio
async def h(ctx):
    while 1:
        r = await anyio.to_thread.run_sync(f)  # here
        await ctx.info("polled")
        if r:
            break
    return r
`, true},
	{"while a non-empty string: always true, continue goes to next offload", `
import anyio
async def h(ctx):
    while "polling":
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            continue
        await ctx.info("got")
        return r
`, true},
	{"while an empty string: the loop may exit", `
import anyio
async def h(ctx):
    while "":
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            continue
        await ctx.info("got")
        return r
`, false},
	{"while True: break right after", `
import anyio
async def h(ctx):
    while True:
        r = await anyio.to_thread.run_sync(f)  # here
        if r:
            break
        await ctx.info("polled")
    return r
`, false},
	{"while True, continue goes to next offload", `
import anyio
async def h(ctx):
    while True:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            continue
        await ctx.info("got")
        return r
`, true},
	{"while cond: loop may exit", `
import anyio
async def h(ctx, n):
    while n:
        n = await anyio.to_thread.run_sync(f, n)  # here
`, false},
	{"while cond re-evaluates a checkpoint", `
import anyio
async def h(ctx, n):
    while await ctx.info("x"):
        n = await anyio.to_thread.run_sync(f, n)  # here
`, true},
	{"loop else checkpoints", `
import anyio
async def h(ctx, items):
    for i in items:
        await anyio.to_thread.run_sync(f, i)  # here
    else:
        await ctx.info("done")
`, true},
	{"try/finally with checkpoint", `
import anyio
async def h(ctx):
    try:
        return await anyio.to_thread.run_sync(f)  # here
    finally:
        await ctx.info("done")
`, true},
	{"try/finally without checkpoint", `
import anyio
async def h(ctx):
    try:
        return await anyio.to_thread.run_sync(f)  # here
    finally:
        cleanup()
`, false},
	{"except handler returns", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise ValueError()
        await ctx.info("ok")
    except ValueError:
        return "bad"
    return r
`, false},
	{"except handler checkpoints", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        if not r:
            raise ValueError()
        await ctx.info("ok")
    except ValueError:
        await ctx.error("bad")
        return "bad"
    return r
`, true},
	{"try else", `
import anyio
async def h(ctx):
    try:
        r = await anyio.to_thread.run_sync(f)  # here
    except Exception:
        raise
    else:
        await ctx.info("ok")
    return r
`, true},
	{"inside except handler", `
import anyio
async def h(ctx):
    try:
        r = g()
    except Exception:
        r = await anyio.to_thread.run_sync(f)  # here
    return r
`, false},
	{"inside finally, pending return", `
import anyio
async def h(ctx):
    try:
        return 1
    finally:
        await anyio.to_thread.run_sync(f)  # here
    await ctx.info("never for the return path")
`, false},
	{"async with unknown is not a checkpoint", `
import anyio
async def h(db):
    async with db.transaction():
        r = await anyio.to_thread.run_sync(f)  # here
    return r
`, false},
	{"async with body checkpoint", `
import anyio
async def h(ctx, db):
    async with db.transaction():
        r = await anyio.to_thread.run_sync(f)  # here
        await ctx.info("x")
    return r
`, true},
	{"shielded scope: checkpoint inside does not count", `
import anyio
async def h(ctx):
    with anyio.CancelScope(shield=True):
        r = await anyio.to_thread.run_sync(f)  # here
        await anyio.sleep(0)
    return r
`, false},
	{"shielded scope assigned first", `
import anyio
async def h(ctx):
    scope = anyio.move_on_after(5, shield=True)
    with scope:
        r = await anyio.to_thread.run_sync(f)  # here
        await anyio.sleep(0)
    return r
`, false},
	{"shielded scope then checkpoint after the block", `
import anyio
async def h(ctx):
    with anyio.CancelScope(shield=True):
        r = await anyio.to_thread.run_sync(f)  # here
    await anyio.sleep(0)
    return r
`, true},
	{"unshielded move_on_after", `
import anyio
async def h(ctx):
    with anyio.move_on_after(5):
        r = await anyio.to_thread.run_sync(f)  # here
        await anyio.sleep(0)
    return r
`, true},
	{"match without default", `
import anyio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    match r:
        case 1:
            await ctx.info("one")
        case 2:
            await ctx.info("two")
    return r
`, false},
	{"match with default", `
import anyio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    match r:
        case 1:
            await ctx.info("one")
        case _:
            await ctx.info("other")
    return r
`, true},
	{"nested function body does not run", `
import anyio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    async def later():
        await ctx.info("x")
    return r
`, false},
	{"offload in nested function", `
import anyio
async def h(ctx):
    async def inner():
        return await anyio.to_thread.run_sync(f)  # here
    r = await inner()
    await ctx.info("x")
    return r
`, false},
	{"project helper that always checkpoints", `
import anyio
async def notify(ctx, msg):
    await ctx.info(msg)
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    await notify(ctx, "done")
    return r
`, true},
	{"project helper that checkpoints on some paths", `
import anyio
async def notify(ctx, msg):
    if msg:
        await ctx.info(msg)
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    await notify(ctx, "done")
    return r
`, false},
	{"project helper that never suspends", `
import anyio
async def compute(x):
    return x + 1
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    return await compute(r)
`, false},
	{"recursive helper is not a checkpoint", `
import anyio
async def loop(n):
    if n:
        return await loop(n - 1)
    return 0
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    await loop(3)
    return r
`, false},
	{"if condition holds the offload", `
import anyio
async def h(ctx):
    if await anyio.to_thread.run_sync(f):  # here
        await ctx.info("yes")
    else:
        await ctx.info("no")
`, true},
	{"if condition holds the offload, one branch returns", `
import anyio
async def h(ctx):
    if await anyio.to_thread.run_sync(f):  # here
        return 1
    await ctx.info("no")
`, false},
	{"async for over iterate_in_threadpool: after the loop", `
from starlette.concurrency import iterate_in_threadpool
async def h(ctx):
    async for x in iterate_in_threadpool(gen()):  # here
        await ctx.info(x)
`, false},
	{"async for over iterate_in_threadpool, checkpoint after", `
from starlette.concurrency import iterate_in_threadpool
async def h(ctx):
    async for x in iterate_in_threadpool(gen()):  # here
        pass
    await ctx.info("done")
`, true},
	{"raise in the same statement", `
import anyio
async def h(ctx):
    raise ValueError(await anyio.to_thread.run_sync(f))  # here
`, false},
	{"another exception raised in the same statement of an except clause", `
import anyio
async def h(ctx):
    try:
        await anyio.sleep(1)
    except BaseException:
        raise RuntimeError(await anyio.to_thread.run_sync(f)) from None  # here
`, false},
	{"run_in_executor is a checkpoint", `
import anyio, asyncio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, g)
    return r
`, true},
	{"asyncio.to_thread is a checkpoint", `
import anyio, asyncio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    return await asyncio.to_thread(g, r)
`, true},
	{"awaiting a task is not", `
import anyio, asyncio
async def h(ctx):
    r = await anyio.to_thread.run_sync(f)  # here
    t = asyncio.create_task(g())
    await t
    return r
`, false},
}

// Which ways out of the function an uncovered path takes.
func TestUncoveredExits(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      Exits
	}{
		{"return", `
import anyio
async def h():
    return await anyio.to_thread.run_sync(f)  # here
`, ExitReturn},
		{"raise", `
import anyio
async def h():
    r = await anyio.to_thread.run_sync(f)  # here
    raise ValueError(r)
`, ExitRaise},
		{"both", `
import anyio
async def h():
    r = await anyio.to_thread.run_sync(f)  # here
    if r:
        raise ValueError(r)
    return r
`, AnyExit},
		{"caught and returned", `
import anyio
async def h():
    try:
        r = await anyio.to_thread.run_sync(f)  # here
        raise ValueError(r)
    except ValueError:
        return None
`, ExitReturn},
		{"re-raise of the caught cancellation", `
import anyio
async def h():
    try:
        await anyio.sleep(1)
    except BaseException as exc:
        await anyio.to_thread.run_sync(f)  # here
        raise exc
`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			n := marked(t, m)
			if got := New(sameModule{}).UncoveredAfter(m, m.FuncAt(n), n, Extra{}); got != c.want {
				t.Errorf("UncoveredAfter = %b, want %b", got, c.want)
			}
		})
	}
}

// A helper's raise seen from its call site.
func TestUncoveredRaising(t *testing.T) {
	src := `
import anyio
async def h():
    try:
        await anyio.to_thread.run_sync(g)  # here
    except KeyError:
        return None
`
	m := parse(t, src)
	n := marked(t, m)
	if got := New(sameModule{}).UncoveredRaising(m, m.FuncAt(n), n); got != AnyExit {
		t.Errorf("UncoveredRaising = %b, want both (KeyError handler returns; others go on)", got)
	}
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
