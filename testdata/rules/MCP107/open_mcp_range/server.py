import guard  # noqa: F401
from mcp.server.mcpserver import MCPServer

# MCPServer is the 2.x API: the code does not tie the project to mcp 1.x, so
# only the open range admits 1.x here.
mcp = MCPServer("weather")


@mcp.tool()
async def ping() -> str:
    return "pong"
