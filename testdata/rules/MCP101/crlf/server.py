import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("crlf")


@mcp.tool()
async def windows(path: str) -> str:
    return await anyio.to_thread.run_sync(str, path)  # want: MCP101
