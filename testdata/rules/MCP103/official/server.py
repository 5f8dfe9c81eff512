from mcp.server.fastmcp import FastMCP

mcp = FastMCP("official")


@mcp.tool()
def official_sync(n: int) -> int:
    # the official SDK runs sync tools inline (it blocks the loop, no crash)
    return n
