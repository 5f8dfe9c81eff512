import functools

import asyncer
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("background")


def async_background(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await asyncer.asyncify(fn)(*args, **kwargs)  # want: MCP101

    return wrapper


@mcp.tool()
@async_background
def slow(n: int) -> int:
    return n * 2
