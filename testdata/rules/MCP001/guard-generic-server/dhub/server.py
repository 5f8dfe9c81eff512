# The server is built from a subscripted generic class (FastMCP[None]): the
# guard belongs beside this module, not beside the test that builds its own.
from mcp.server.fastmcp import FastMCP

mcp = FastMCP[None]("dhub")


@mcp.tool()
async def ping() -> str:
    return "pong"
