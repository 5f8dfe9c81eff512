import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


def work(x):
    return x * 2


@mcp.tool()
async def double(x: int) -> int:
    """Dóuble x — in a thread 😀."""
    y = await anyio.to_thread.run_sync(work, x)
    return y


@mcp.tool()
async def triple(x: int) -> int:
    return await anyio.to_thread.run_sync(work, x)  # mcplint: ignore[MCP101] reviewed: test fixture for SARIF suppressions
