# /// script
# dependencies = ["mcp>=2,<3"]
# ///
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("script on mcp 2: nothing to report")


@mcp.tool()
async def work(n: int) -> int:
    return await anyio.to_thread.run_sync(sum, range(n))
