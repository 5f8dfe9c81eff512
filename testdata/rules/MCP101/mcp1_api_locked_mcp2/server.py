# The lock pins mcp 2.3.0, where this import fails: the code is broken, the
# lock still says which mcp the project runs, so the finding is a note.
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def read_file(path: str) -> str:
    return await anyio.to_thread.run_sync(open, path)  # note: MCP101
