import asyncio

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("v2")


@mcp.tool()
async def swallow() -> str:
    # mcp 2.x drops the late result: not reported.
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass
    return "ok"
