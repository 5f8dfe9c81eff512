from mcp.server.fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""

    @mcp.tool()
    async def lookup(key: str) -> str:
        return key.upper()
