import guard  # noqa: F401
from fastmcp import FastMCP

mcp = FastMCP("sync")


@mcp.tool
def slow_sum(a: int, b: int) -> int:
    return a + b
