# /// script
# requires-python = ">=3.10"
# dependencies = [
#     "requests>=2,<3",
#     "mcp>=1.2.0,<2",  # want: MCP001
# ]
# ///
# The line above the mcp requirement is TOML, not a comment: it names a
# version (2) but pins nothing deliberately, so the safe floor fix applies.
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("neighbour")


@mcp.tool()
async def ping() -> str:
    return "pong"
