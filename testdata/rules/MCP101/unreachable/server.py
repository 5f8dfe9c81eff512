import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("small")


@mcp.tool()
async def ping() -> str:
    return "pong"


async def batch_job():
    # never reached from a handler
    return await anyio.to_thread.run_sync(print)
