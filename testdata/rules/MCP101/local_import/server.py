"""Imports deliberately made inside the handler stay there."""

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("local")


@mcp.tool()
async def parse(path: str) -> str:
    """Parse a file."""
    import json

    from anyio import to_thread

    return await to_thread.run_sync(json.loads, path)  # want: MCP101
