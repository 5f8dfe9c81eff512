package rules

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

func TestMCP104Detection(t *testing.T) {
	cases := map[string]string{
		"forms": `
import asyncio, contextlib, trio
import anyio
from asyncio import CancelledError as CE
from contextlib import suppress

async def h():
    try:
        await x()
    except asyncio.CancelledError:  # want: MCP104
        return None
    try:
        await x()
    except CE as e:  # want: MCP104
        log(e)
    try:
        await x()
    except:  # want: MCP104
        pass
    try:
        await x()
    except BaseException as e:  # want: MCP104
        raise ToolError(str(e)) from e
    try:
        await x()
    except (ValueError, anyio.get_cancelled_exc_class()):  # want: MCP104
        pass
    try:
        await x()
    except* trio.Cancelled:  # want: MCP104
        pass
    exc = anyio.get_cancelled_exc_class()
    try:
        async with lock:
            pass
    except exc:  # want: MCP104
        pass
    with suppress(asyncio.CancelledError):  # want: MCP104
        await x()
    with contextlib.suppress(ValueError):
        await x()
    for i in range(3):
        try:
            await x()
        finally:
            continue  # want: MCP104
    try:
        await x()
    finally:
        for j in y:
            break
        return 1  # want: MCP104
`,
		"negatives": `
import asyncio
from .errors import CancelledError

async def h(task):
    try:
        await x()
    except Exception:
        pass
    try:
        await x()
    except CancelledError:
        pass
    try:
        x()
    except BaseException:
        pass
    try:
        await x()
    except asyncio.CancelledError:
        cleanup()
        raise
    try:
        await x()
    except BaseException as e:
        if isinstance(e, asyncio.CancelledError):
            raise e
        log(e)
    try:
        await x()
    except asyncio.CancelledError:
        raise asyncio.CancelledError()
    try:
        await x()
    finally:
        try:
            await y()
        except BaseException:
            pass
    if task.done():
        try:
            await task
        except asyncio.CancelledError:
            pass
    done, pending = await asyncio.wait(tasks)
    for t in done:
        try:
            await t
        except BaseException:
            pass
    try:
        await x()
    except BaseException:  # want: MCP104
        raise BaseException("no")
`,
		"what follows": `
import asyncio, contextlib
import anyio

async def h(ctx):
    try:
        await x()
    except asyncio.CancelledError:
        pass
    await anyio.lowlevel.checkpoint()
    try:
        await x()
    except asyncio.CancelledError:
        await ctx.info("re-delivered here")
    try:
        await x()
    except asyncio.CancelledError:  # want: MCP104
        pass
    if cond:
        await anyio.sleep(0)
    if other:
        return 0
    with contextlib.suppress(asyncio.CancelledError):
        await x()
    await asyncio.sleep(0)
    while True:
        try:
            await asyncio.sleep(1)
            break
        except asyncio.CancelledError:  # want: MCP104
            pass
    return 1
`,
		"outer re-raise": `
import asyncio, contextlib

async def h():
    try:
        await x()
    except BaseException:
        with contextlib.suppress(asyncio.CancelledError):
            await drain()
        raise
    try:
        await x()
    except BaseException as e:
        try:
            await drain()
        except asyncio.CancelledError:
            log()
        raise e
    try:
        await x()
    except BaseException:
        for t in tasks:
            try:
                await t
            except BaseException:  # want: MCP104
                pass
        if cond:
            raise
        return 1  # not every path re-raises: the inner swallow can end the handler
    try:
        await x()
    except BaseException:
        try:
            await drain()
        except asyncio.CancelledError:  # want: MCP104
            return None
        raise
`,
		"flag then raise": `
import asyncio
import anyio

async def h(task):
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return result

async def h2(task):
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except anyio.get_cancelled_exc_class():
            cancelled = True
    if cancelled:
        raise anyio.get_cancelled_exc_class()()
    return result

async def not_a_cancel_class(task):
    failed = False
    try:
        result = await task
    except asyncio.CancelledError:  # want: MCP104
        failed = True
    if failed:
        raise RuntimeError("x")
    return result

async def other_flag(task):
    cancelled = False
    try:
        result = await task
    except asyncio.CancelledError:  # want: MCP104
        done = True
    if cancelled:
        raise asyncio.CancelledError
    return result
`,
		"task known done after a loop": `
import asyncio

async def h(t, u):
    while not t.done():
        await asyncio.sleep(0.1)
    try:
        await t
    except asyncio.CancelledError:
        pass
    while not u.done():
        if stop:
            break
        await asyncio.sleep(0.1)
    try:
        await u
    except asyncio.CancelledError:  # want: MCP104
        pass
`,
		"checkpoint in the except body": `
import anyio

async def h():
    try:
        await x()
    except BaseException:
        await anyio.sleep(0)
        raise ToolError("x")
    try:
        await x()
    except BaseException as exc:
        if exc:
            await anyio.lowlevel.checkpoint()
        else:
            await anyio.sleep(0)
        raise ToolError("x") from exc
    try:
        await x()
    except BaseException:  # want: MCP104
        if y:
            raise ToolError("early")
        await anyio.sleep(0)
        raise ToolError("x")
    try:
        await x()
    except BaseException:  # want: MCP104
        if y:
            await anyio.sleep(0)
        raise ToolError("x")
    try:
        await x()
    except BaseException:  # want: MCP104
        with anyio.CancelScope(shield=True):
            await anyio.sleep(0)
        raise ToolError("x")
`,
		"different exception on one path": `
import asyncio
import anyio

async def h():
    try:
        await x()
    except BaseException as exc:  # want: MCP104
        if not await close():
            raise ShutdownError("x") from exc
        raise
    try:
        await x()
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            raise
        raise ToolError(str(exc)) from exc
    try:
        await x()
    except BaseException as exc:
        if isinstance(exc, Exception) and not quiet:
            raise ToolError(str(exc)) from exc
        raise
    try:
        await x()
    except BaseException as exc:
        if isinstance(exc, anyio.get_cancelled_exc_class()):
            log()
        elif isinstance(exc, OSError):
            raise ToolError() from exc
        raise
    try:
        await x()
    except BaseException as exc:
        if type(exc) == asyncio.CancelledError:
            raise
        else:
            raise ToolError() from exc
    try:
        await x()
    except BaseException as exc:
        if not isinstance(exc, (asyncio.CancelledError, KeyboardInterrupt)):
            raise ToolError() from exc
        raise exc.with_traceback(None)
    try:
        await x()
    except BaseException as exc:  # want: MCP104
        if isinstance(exc, asyncio.CancelledError):
            log()
        raise ToolError() from exc
    try:
        await x()
    except BaseException as exc:  # want: MCP104
        if isinstance(exc, (ValueError, asyncio.CancelledError)):
            raise ToolError() from exc
        raise
    try:
        await x()
    except BaseException as exc:  # want: MCP104
        try:
            await cleanup()
        except Exception as inner:
            raise CleanupError() from inner
        raise
    try:
        await x()
    except BaseException as exc:
        await anyio.lowlevel.checkpoint_if_cancelled()
        raise ToolError() from exc
    try:
        await x()
    except BaseException as exc:
        log()
        await asyncio.sleep(0)
        if bad:
            raise ToolError() from exc
        return 1
    try:
        await x()
    except BaseException as exc:  # want: MCP104
        if bad:
            await anyio.lowlevel.checkpoint_if_cancelled()
        raise ToolError() from exc
`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := unitRun(t, mcp104, src, unitSwallowed)
			checkWants(t, src, "MCP104", diags)
		})
	}
}

func TestMCP104Fix(t *testing.T) {
	// checkpoint is the safe fix's result ("" when it is not offered), raise
	// the unsafe one's.
	cases := []struct{ name, src, checkpoint, raise string }{
		{"pass", "import anyio\nasync def h():\n    try:\n        await x()\n    except BaseException:\n        pass\n",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except BaseException:\n        await anyio.lowlevel.checkpoint_if_cancelled()\n",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except BaseException:\n        raise\n"},
		{"append", "import anyio\r\nasync def h():\r\n    try:\r\n        await x()\r\n    except:\r\n        log()  # note\r\n",
			"import anyio\r\nasync def h():\r\n    try:\r\n        await x()\r\n    except:\r\n        log()  # note\r\n        await anyio.lowlevel.checkpoint_if_cancelled()\r\n",
			"import anyio\r\nasync def h():\r\n    try:\r\n        await x()\r\n    except:\r\n        log()  # note\r\n        raise\r\n"},
		{"before return", "import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError:\n        log()\n        return 1\n",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError:\n        log()\n        await anyio.lowlevel.checkpoint_if_cancelled()\n        return 1\n",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError:\n        log()\n        raise\n        return 1\n"},
		{"early return", "import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError:\n        if y:\n            return 2\n        return 1\n",
			"",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError:\n        if y:\n            return 2\n        raise\n        return 1\n"},
		{"one line", "import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError: log()\n",
			"",
			"import anyio\nasync def h():\n    try:\n        await x()\n    except asyncio.CancelledError: log(); raise\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := unitRun(t, mcp104, c.src, unitSwallowed)
			if len(diags) != 1 {
				t.Fatalf("got %+v", diags)
			}
			fixes := diags[0].Fixes
			want := []string{c.raise}
			if c.checkpoint != "" {
				want = []string{c.checkpoint, c.raise}
				if fixes[0].Applicability != Safe {
					t.Errorf("the checkpoint fix is %v, want safe", fixes[0].Applicability)
				}
			}
			if len(fixes) != len(want) {
				t.Fatalf("%d fixes, want %d: %+v", len(fixes), len(want), fixes)
			}
			for i, w := range want {
				got := applyFix(t, c.src, fixes[i])
				if got != w {
					t.Errorf("fix %d:\n%q\nwant:\n%q", i+1, got, w)
				}
				if _, again := unitRun(t, mcp104, got, unitSwallowed); len(again) != 0 {
					t.Errorf("fix %d: finding not gone: %v", i+1, again[0].Message)
				}
			}
		})
	}
}

// unitSwallowed checks one function with no handler index: every function
// counts as its own handler.
func unitSwallowed(p *Pass, m *pyast.Module, f *pyast.Function) {
	checkSwallowed(newRequestEnds(p), m, f)
}

// A helper's swallow that ends one handler by returning and another by
// raising is told as the return (the message findings had before raises
// counted), whichever handler comes first.
func TestMCP104MessagePrefersReturn(t *testing.T) {
	src := `import asyncio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("m")


async def wait_quietly():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        pass


@mcp.tool()
async def first():
    await wait_quietly()
    raise ValueError("stopped")


@mcp.tool()
async def second():
    await wait_quietly()
    return "done"
`
	diags := projectRun(t, mcp104, map[string]string{"server.py": src})
	if len(diags) != 1 {
		t.Fatalf("%d findings, want 1: %v", len(diags), diags)
	}
	if msg := diags[0].Message; !strings.Contains(msg, "returns normally") || strings.Contains(msg, "raises another exception") {
		t.Errorf("message %q: want the handler that returns normally", msg)
	}
	// Only a raise after the swallow: the message says so.
	raiseOnly := strings.Replace(src, "    await wait_quietly()\n    return \"done\"\n", "    return \"done\"\n", 1)
	diags = projectRun(t, mcp104, map[string]string{"server.py": raiseOnly})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "raises another exception") {
		t.Errorf("raise only: %v, want one finding saying the handler raises another exception", diags)
	}
}
