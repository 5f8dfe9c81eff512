"""Coroutines that run as tasks of their own (keboola tools/sql.py
_cancel_and_drain): a swallow there does not make the handler return
normally. gather raises the awaiting task's cancellation even when a child
returned normally; shield raises it at once; anyio re-delivers it at the
task group's exit."""

import asyncio

import anyio
from mcp.server.fastmcp import Context, FastMCP

from helpers import awaited_helper, cancel_and_drain, helper_then_checkpoint, in_task_group, in_wait_for

mcp = FastMCP("tasks")


async def _drain(*tasks: asyncio.Task) -> None:
    await asyncio.shield(asyncio.gather(*(cancel_and_drain(t) for t in tasks)))


@mcp.tool()
async def gathered() -> str:
    task = asyncio.create_task(asyncio.sleep(10))
    await asyncio.shield(asyncio.gather(cancel_and_drain(task)))
    await _drain(task)
    return "c"


@mcp.tool()
async def spawned() -> str:
    task = asyncio.create_task(cancel_and_drain(asyncio.create_task(asyncio.sleep(1))))
    other = asyncio.ensure_future(in_task_group())
    async with anyio.create_task_group() as tg:
        tg.start_soon(in_task_group)
        await tg.start(in_task_group)
    async with asyncio.TaskGroup() as group:
        group.create_task(in_task_group())
    return str(task) + str(other)


@mcp.tool()
async def awaited() -> str:
    return await awaited_helper()


@mcp.tool()
async def awaited_then_checkpoint(ctx: Context) -> str:
    await helper_then_checkpoint()
    await in_wait_for(1)
    await ctx.info("done")
    return "ok"


@mcp.tool()
async def wait_for_helper() -> str:
    return await asyncio.wait_for(in_wait_for(2), timeout=5)


@mcp.tool()
async def checkpoint_after(ctx: Context) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass
    await anyio.sleep(0)
    return "re-delivered"


@mcp.tool()
async def checkpoint_in_except(ctx: Context) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        await ctx.info("cancelled")
    return "re-delivered"


@mcp.tool()
async def no_checkpoint_after(ctx: Context) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        pass
    # wait_for awaits a coroutine that never suspends: no checkpoint.
    await asyncio.wait_for(_no_suspend(), 1)
    return "returns normally"


async def _no_suspend() -> str:
    return "x"


@mcp.tool()
async def wait_for_checkpoint_after(ctx: Context) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass
    # wait_for awaits the sleep, a real checkpoint: the cancel is re-delivered.
    await asyncio.wait_for(asyncio.sleep(1), 1)
    return "re-delivered"
