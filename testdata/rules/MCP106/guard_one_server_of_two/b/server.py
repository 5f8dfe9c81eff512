# Another server of the same project, run as its own process, never imports
# the guard: a's guard does not protect it.
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("b")


def fetch() -> str:
    return "rain"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # want: MCP101


if __name__ == "__main__":
    mcp.run()
