from mcp.server.fastmcp import FastMCP

from decorators import retry

mcp = FastMCP("wrapped")


@mcp.tool()
@retry
async def flaky() -> str:
    return "ok"
