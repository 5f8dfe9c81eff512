"""The manifest requires mcp 2 and the lock still holds 1.26.0 (made before
the move): the next install re-locks to mcp 2, where the respond/cancel
guard fails at import, so it is not offered; the finding says to re-lock."""
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("sums")


@mcp.tool()
async def add(a: int, b: int) -> int:
    return a + b
