import guard  # noqa: F401
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
async def ping() -> str:
    return "pong"
