import anyio.to_thread as threads
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("bom")


@mcp.tool()
async def work(n: int) -> int:
    return await threads.run_sync(sum, range(n))  # want: MCP101
