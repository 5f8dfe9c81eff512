import asyncio
import contextlib
from asyncio import CancelledError as Cancelled

import anyio
import trio
from mcp.server.fastmcp import Context, FastMCP

from helpers import fetch

mcp = FastMCP("forms")


@mcp.tool()
async def returns_value(url: str) -> str:
    try:
        return await fetch(url)
    except asyncio.CancelledError:  # want: MCP104
        return "cancelled"


@mcp.tool()
async def alias_and_log(url: str) -> str:
    try:
        await fetch(url)
    except Cancelled as exc:  # want: MCP104
        print("cancelled", exc)
    return "done"


@mcp.tool()
async def bare(url: str) -> str:
    try:
        await fetch(url)
    except:  # want: MCP104
        pass
    return "done"


@mcp.tool()
async def other_exception(url: str) -> str:
    try:
        return await fetch(url)
    except BaseException as exc:  # want: MCP104
        raise RuntimeError(f"fetch failed: {exc}") from exc


@mcp.tool()
async def tuple_and_anyio(url: str) -> str:
    exc_class = anyio.get_cancelled_exc_class()
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(fetch, url)
    except (ValueError, exc_class):  # want: MCP104
        return "stopped"
    try:
        await fetch(url)
    except (OSError, anyio.get_cancelled_exc_class()):  # want: MCP104
        return "stopped"
    return "done"


@mcp.tool()
async def groups(url: str) -> str:
    try:
        await fetch(url)
    except* trio.Cancelled:  # want: MCP104
        pass
    return "done"


@mcp.tool()
async def suppressed(url: str, ctx: Context) -> str:
    with contextlib.suppress(asyncio.CancelledError):  # want: MCP104
        await fetch(url)
    return "done"


@mcp.tool()
async def finally_return(url: str) -> str:
    try:
        await fetch(url)
    finally:
        return "always"  # want: MCP104


@mcp.tool()
async def finally_loop(urls: list[str]) -> int:
    n = 0
    for url in urls:
        try:
            await fetch(url)
        finally:
            n += 1
            continue  # want: MCP104
    return n
