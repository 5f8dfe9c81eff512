# The server's own imports run on mcp 2.x: the 1.x name is only the fallback
# of a try/except ImportError, and the other 1.x imports of the project are in
# a test and in a client the server never loads. The open range resolves to
# mcp 2.x: a note.
import anyio

try:
    from mcp.server.mcpserver import MCPServer
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer

mcp = MCPServer("files")


@mcp.tool()
async def read_file(path: str) -> str:
    return await anyio.to_thread.run_sync(open, path)  # note: MCP101
