import anyio as aio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("alias")


@mcp.tool()
async def aliased() -> None:
    return await aio.to_thread.run_sync(print)  # want: MCP101
