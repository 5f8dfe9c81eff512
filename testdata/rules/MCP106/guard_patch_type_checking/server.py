"""The guard module patches under `if TYPE_CHECKING:`: it guards nothing."""
import guard  # noqa: F401
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)  # want: MCP101


if __name__ == "__main__":
    mcp.run()
