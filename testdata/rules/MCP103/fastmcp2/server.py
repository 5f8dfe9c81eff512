from fastmcp import FastMCP

mcp = FastMCP("fastmcp2")


@mcp.tool
def inline_in_2x(n: int) -> int:
    # fastmcp 2.x runs sync tools inline.
    return n
