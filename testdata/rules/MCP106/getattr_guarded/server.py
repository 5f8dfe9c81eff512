"""Weather tools."""
from __future__ import annotations

import guard  # noqa: F401
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


def fetch() -> str:
    return "sunny"


@mcp.tool()
async def forecast() -> str:
    return await anyio.to_thread.run_sync(fetch)


@mcp.tool()
async def report() -> str:
    try:
        return await fetch_async()
    except BaseException:
        return "unavailable"


async def fetch_async() -> str:
    with anyio.CancelScope(shield=True):
        await anyio.sleep(1)
    return "ok"
