try:
    from fastmcp import FastMCP
except ImportError:
    from mcp.server.fastmcp import FastMCP

mcp = FastMCP("either")


@mcp.tool()
def chosen_fastmcp(n: int) -> int:
    return n
