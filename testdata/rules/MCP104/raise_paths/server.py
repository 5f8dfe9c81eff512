"""A swallowed cancellation followed by a raise of another exception: a second response."""

import asyncio

import anyio
import httpx
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("raise-paths")
client = httpx.AsyncClient()


async def wait_quietly(task: asyncio.Task) -> bool:
    try:
        await task
        return True
    except asyncio.CancelledError:  # want: MCP104
        return False


# ---- must flag


@mcp.tool()
async def helper_swallows_then_caller_raises(url: str) -> str:
    task = asyncio.ensure_future(client.get(url))
    if not await wait_quietly(task):
        raise ValueError("request did not finish")
    await anyio.sleep(0)
    return task.result().text


@mcp.tool()
async def converted_later(url: str) -> str:
    failure = None
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException as exc:  # want: MCP104
        failure = exc
    raise ToolError(f"fetch failed: {failure}")


# ---- must not flag


async def close_session() -> None:
    await client.post("https://api.example/logout")


async def wait_and_reraise(task: asyncio.Task) -> None:
    try:
        await task
    except asyncio.CancelledError:
        task.cancel()
        raise


@mcp.tool()
async def bare_reraise(url: str) -> str:
    task = asyncio.ensure_future(client.get(url))
    await wait_and_reraise(task)
    return task.result().text


async def wait_then_report(task: asyncio.Task, ctx: Context) -> bool:
    try:
        await task
        return True
    except asyncio.CancelledError:
        await ctx.info("interrupted")  # real I/O: the cancel is re-delivered here
        return False


@mcp.tool()
async def swallow_then_info_then_raise(url: str, ctx: Context) -> str:
    task = asyncio.ensure_future(client.get(url))
    if not await wait_then_report(task, ctx):
        raise ValueError("request did not finish")
    return task.result().text


@mcp.tool()
async def close_then_tool_error(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:
        await close_session()  # real I/O: anyio re-delivers the cancel at this await
        raise ToolError("fetch failed")


@mcp.tool()
async def raise_caught_by_own_try(url: str, ctx: Context) -> str:
    task = asyncio.ensure_future(client.get(url))
    try:
        if not await wait_quietly(task):
            raise LookupError("request did not finish")
    except LookupError:
        await ctx.warning("gone")  # real I/O: the cancel is re-delivered here
        return ""
    await anyio.sleep(0)
    return task.result().text
