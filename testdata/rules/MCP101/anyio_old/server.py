import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("old")


@mcp.tool()
async def legacy(path: str) -> str:
    return await anyio.to_thread.run_sync(str, path)  # want: MCP101
