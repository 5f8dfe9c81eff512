from mcp.server.fastmcp import FastMCP

mcp = FastMCP("ping")


@mcp.tool()
async def ping() -> str:
    return "pong"
