# requirements.txt includes base.txt, which pins mcp 1.x: installed together,
# so the fastmcp 4 bump moves that pin too.
from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""

    @mcp.tool
    async def add(a: int, b: int) -> int:
        return a + b
