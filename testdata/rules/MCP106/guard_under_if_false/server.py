"""The guard import never runs: it is under `if False:`."""
import anyio
from mcp.server.fastmcp import FastMCP

if False:
    import guard  # noqa: F401

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # want: MCP101


if __name__ == "__main__":
    mcp.run()
