# The lock pins mcp 2.0.0, which the manifest no longer admits (<2): uv sync
# re-locks from the manifest to 1.x before it installs, so the project runs
# mcp 1.x and the finding is an error (only `uv sync --frozen` keeps 2.0.0).
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def read_file(path: str) -> str:
    return await anyio.to_thread.run_sync(open, path)  # want: MCP101
