"""A real checkpoint inside the except body re-delivers the cancellation."""

import asyncio

import anyio
import httpx
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("except-checkpoint")
client = httpx.AsyncClient()


@mcp.tool()
async def reports_then_raises(url: str, ctx: Context) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:
        # Sending the log message is real I/O: anyio re-delivers the cancel
        # at this await and the cancellation escapes.
        await ctx.error(f"fetch {url} failed")
        raise ToolError("fetch failed")


@mcp.tool()
async def posts_then_raises(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException as exc:
        await client.post("https://errors.example/report", json={"url": url})
        raise ToolError("fetch failed") from exc


@mcp.tool()
async def checkpoints_then_swallows(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:
        await anyio.lowlevel.checkpoint()
        return "failed"


@mcp.tool()
async def shielded_close_then_raises(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:  # want: MCP104
        with anyio.CancelScope(shield=True):
            await client.post("https://errors.example/report", json={"url": url})
        raise ToolError("fetch failed")


@mcp.tool()
async def logs_then_raises(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:  # want: MCP104
        log(url)
        raise ToolError("fetch failed")


@mcp.tool()
async def non_io_await_then_raises(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:  # want: MCP104
        await _no_suspend()
        raise ToolError("fetch failed")


async def _no_suspend() -> None:
    return None


def log(url: str) -> None:
    print("failed", url)


async def _close_deferring_cancels() -> bool:
    """Awaits the close to completion, swallowing the cancels it meets."""
    task = asyncio.ensure_future(client.aclose())
    while True:
        try:
            await asyncio.shield(task)
            return True
        except asyncio.CancelledError:  # want: MCP104
            # Its only caller raises ToolError after it with no checkpoint:
            # another exception ends the handler like a return, so this
            # swallow is a finding too, next to the caller's except.
            if task.done():
                return False


@mcp.tool()
async def closes_deferring_cancels_then_raises(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except BaseException:  # want: MCP104
        # The helper swallows the re-delivered cancel: no checkpoint for us.
        await _close_deferring_cancels()
        raise ToolError("fetch failed")
