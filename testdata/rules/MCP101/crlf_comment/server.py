"""CRLF file whose async-with body ends in a comment."""
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("crlf")
lock = anyio.Lock()


@mcp.tool()
async def measure(path: str) -> str:
    async with lock:  # releasing an anyio.Lock is not a checkpoint
        data = await anyio.to_thread.run_sync(len, path)  # want: MCP101
        # trailing comment in the body
    return str(data)
