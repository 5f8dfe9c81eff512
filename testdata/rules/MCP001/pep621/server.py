from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def hello() -> str:
    return "hi"
