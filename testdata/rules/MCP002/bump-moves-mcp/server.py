# fastmcp 4 requires mcp>=2: its bump moves the mcp pin beside it too, or
# the requirements file could not be installed.
from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""

    @mcp.tool
    async def add(a: int, b: int) -> int:
        return a + b
