from fastmcp import FastMCP

mcp = FastMCP("fastmcp4")


@mcp.tool
def safe_on_mcp2(n: int) -> int:
    # fastmcp 4 runs on mcp 2.x, which drops the late result.
    return n
