import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # note: MCP101
