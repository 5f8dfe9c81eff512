"""Run as python -m app.server: app/__init__.py, which imports the guard, runs first."""
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # note: MCP101


if __name__ == "__main__":
    mcp.run()
