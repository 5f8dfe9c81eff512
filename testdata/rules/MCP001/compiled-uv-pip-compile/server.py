from mcp.server.fastmcp import FastMCP

mcp = FastMCP("app")


@mcp.tool()
async def hello() -> str:
    return "hi"
