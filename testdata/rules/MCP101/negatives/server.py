import asyncio

import anyio
import httpx
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("negatives")


def work(x=None):
    return x


@mcp.tool()
async def abandon() -> None:
    await anyio.to_thread.run_sync(work, abandon_on_cancel=True)


@mcp.tool()
async def legacy_cancellable() -> None:
    await anyio.to_thread.run_sync(work, cancellable=True)


@mcp.tool()
async def asyncio_thread() -> None:
    return await asyncio.to_thread(work)


@mcp.tool()
async def executor() -> None:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, work)


@mcp.tool()
async def checkpoint_after() -> None:
    value = await anyio.to_thread.run_sync(work)
    await anyio.lowlevel.checkpoint_if_cancelled()
    return value


@mcp.tool()
async def later_offload() -> None:
    first = await anyio.to_thread.run_sync(work)
    return await anyio.to_thread.run_sync(work, first, abandon_on_cancel=True)


@mcp.tool()
async def progress_after(ctx: Context) -> None:
    value = await anyio.to_thread.run_sync(work)
    await ctx.report_progress(1, 1)
    return value


@mcp.tool()
async def network_after(url: str) -> str:
    value = await anyio.to_thread.run_sync(work, url)
    async with httpx.AsyncClient() as client:
        await client.post(url, json=value)
    return value


@mcp.tool()
async def sleep_in_loop(ctx: Context) -> None:
    for i in range(3):
        await anyio.to_thread.run_sync(work, i)
        await anyio.sleep(0)


@mcp.tool()
async def finally_checkpoint(ctx: Context) -> None:
    try:
        return await anyio.to_thread.run_sync(work)
    finally:
        await ctx.info("done")
