# No formatter is configured and the file's code runs to 120 characters: the
# fixed call stays on its line, as the file's own calls do.
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("wide")
LIMITS = {"connect_seconds": 10, "read_seconds": 30, "write_seconds": 30, "pool_seconds": 5, "retries": 3, "backoff": 2}


def convert(source, target):
    return source


@mcp.tool()
async def convert_file(source: str, target: str) -> str:
    result = await anyio.to_thread.run_sync(convert, source, target)  # want: MCP101
    return result
