# /// script
# dependencies = [
#     # mcp stays below 1.20 until our proxy is upgraded
#     "mcp>=1.2.0,<1.20",  # want: MCP001
# ]
# ///
# A TOML comment inside the metadata pins mcp deliberately: the bump and the
# floor fix are advice only.
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("pinned")


@mcp.tool()
async def ping() -> str:
    return "pong"
