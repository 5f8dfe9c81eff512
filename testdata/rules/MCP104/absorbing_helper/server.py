# A helper that catches the cancellation inside a loop and waits again absorbs
# it: the last round awaits a task that is done, which does not suspend, and
# the helper returns normally. Awaiting it is no checkpoint for its callers.
import asyncio

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("absorbing-helper")


async def restore() -> list[str]:
    await asyncio.sleep(0.1)
    return []


async def work() -> None:
    await asyncio.sleep(1)


async def wait_protected(coro):
    task = asyncio.ensure_future(coro)
    cancelled = False
    while True:
        try:
            return await asyncio.shield(task), cancelled
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True


async def wait_or_deliver(coro):
    task = asyncio.ensure_future(coro)
    while True:
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            await asyncio.sleep(0)  # the cancellation is delivered again here


@mcp.tool()
async def rollback_on_failure() -> str:
    try:
        await work()
    except BaseException as exc:  # want: MCP104
        failures, cancelled = await wait_protected(restore())
        if failures:
            raise RuntimeError("rollback failed") from exc
        raise
    return "ok"


@mcp.tool()
async def rollback_then_deliver() -> str:
    try:
        await work()
    except BaseException as exc:  # covered: the helper's sleep delivers the cancellation again
        failures = await wait_or_deliver(restore())
        if failures:
            raise RuntimeError("rollback failed") from exc
        raise
    return "ok"
