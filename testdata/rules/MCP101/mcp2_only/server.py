import anyio
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("new")


@mcp.tool()
async def fine_on_2x(path: str) -> str:
    return await anyio.to_thread.run_sync(str, path)
