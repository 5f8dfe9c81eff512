# fastmcp 4 runs on mcp 2, which removed McpError: a test imports it, so
# the bump is advice only.
from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""

    @mcp.tool
    async def add(a: int, b: int) -> int:
        return a + b
