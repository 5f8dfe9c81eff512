# This server imports the guard first: its finding is a note.
import guard  # noqa: F401
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("a")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # note: MCP101


if __name__ == "__main__":
    mcp.run()
