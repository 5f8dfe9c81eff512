import asyncio

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("bom, imports on line 1")


@mcp.tool()
async def pause(n: int) -> int:
    try:
        await asyncio.sleep(n)
    except asyncio.CancelledError:  # want: MCP104
        return 0
    return n
