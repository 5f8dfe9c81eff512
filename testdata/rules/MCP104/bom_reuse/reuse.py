"""A lowlevel binding exists already: the checkpoint uses it."""

import asyncio
import contextlib

from anyio import lowlevel
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("reuse")


@mcp.tool()
async def wait(n: int) -> int:
    try:
        await asyncio.sleep(n)
    except BaseException:  # want: MCP104
        pass
    return n


@mcp.tool()
async def quiet(n: int) -> int:
    with contextlib.suppress(asyncio.CancelledError):  # want: MCP104
        await asyncio.sleep(n)
    return n
