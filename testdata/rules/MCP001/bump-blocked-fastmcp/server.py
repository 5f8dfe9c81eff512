from mcp.server.fastmcp import FastMCP

from errors import fail

mcp = FastMCP("notes")


@mcp.tool()
async def read(name: str) -> str:
    if not name:
        fail("empty name")
    return name
