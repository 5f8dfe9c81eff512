# An extra that holds mcp 1.x (past the transport-close floor) and fastmcp 3:
# the fastmcp 4 bump must not leave ["mcp>=1.27.0,<2", "fastmcp>=4,<5"].
from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""

    @mcp.tool
    async def add(a: int, b: int) -> int:
        return a + b
