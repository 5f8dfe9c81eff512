import guard  # noqa: F401
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("weather")


@mcp.tool()
async def ping() -> str:
    return "pong"
