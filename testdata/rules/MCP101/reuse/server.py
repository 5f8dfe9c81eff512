"""A lowlevel binding exists already: the checkpoint uses it."""

import asyncio

from anyio import lowlevel, to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("reuse")


@mcp.tool()
async def work(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))  # want: MCP101

