import asyncio
from asyncio import wait_for

import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("wait-for")


def work(x=None):
    return x


# On Python 3.12+ asyncio.wait_for awaits its argument in the same task: the
# offload's wait, which ignores the cancellation, is what the await does.


@mcp.tool()
async def returned() -> str:
    return await asyncio.wait_for(anyio.to_thread.run_sync(work), 5)  # want: MCP101


@mcp.tool()
async def after_earlier() -> str:
    # The earlier offload is followed by the wait_for's offload, which starts
    # with a checkpoint; the last one is the finding.
    r = await anyio.to_thread.run_sync(work)
    return r + await asyncio.wait_for(anyio.to_thread.run_sync(work), 5)  # want: MCP101


@mcp.tool()
async def imported_name() -> None:
    await wait_for(anyio.to_thread.run_sync(work), timeout=5)  # want: MCP101


@mcp.tool()
async def keyword_fut() -> None:
    await asyncio.wait_for(fut=anyio.to_process.run_sync(work), timeout=5)  # want: MCP101


@mcp.tool()
async def variable() -> None:
    coro = anyio.to_thread.run_sync(work)  # want: MCP101
    await asyncio.wait_for(coro, 5)


@mcp.tool()
async def checkpoint_after(ctx: Context) -> str:
    r = await asyncio.wait_for(anyio.to_thread.run_sync(work), 5)
    await ctx.info("done")
    return r


@mcp.tool()
async def abandoned() -> str:
    return await asyncio.wait_for(anyio.to_thread.run_sync(work, abandon_on_cancel=True), 5)


@mcp.tool()
async def asyncio_thread() -> str:
    return await asyncio.wait_for(asyncio.to_thread(work), 5)


@mcp.tool()
async def covers_earlier() -> str:
    # wait_for of an abandoning offload is a checkpoint: it covers the first.
    r = await anyio.to_thread.run_sync(work)
    await asyncio.wait_for(anyio.to_thread.run_sync(work, abandon_on_cancel=True), 5)
    return r
