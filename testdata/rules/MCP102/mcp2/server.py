import anyio
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("mcp2")


@mcp.tool()
async def shielded(doc: str) -> str:
    with anyio.CancelScope(shield=True):
        await anyio.sleep(1)
    return "mcp 2.x drops the late result"
