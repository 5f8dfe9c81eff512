from mcp.server.fastmcp import FastMCP

mcp = FastMCP("srv")


@mcp.tool()
async def hello() -> str:
    return "hi"
