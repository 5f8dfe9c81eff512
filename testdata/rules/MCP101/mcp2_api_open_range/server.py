import anyio
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("files")


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


@mcp.tool()
async def read_file(path: str) -> str:
    return await anyio.to_thread.run_sync(_read, path)  # note: MCP101
