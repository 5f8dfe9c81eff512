"""One decorator on many defs: its wrapper runs the def it wraps, not every
def the decorator is applied to (Skyvern's @traced)."""

import functools

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("fanout")


def traced(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        return await func(*args, **kwargs)

    return wrapper


def _rebuild() -> None:
    pass


@traced
async def lookup(key: str) -> str:
    return key


@traced
async def rebuild_index() -> None:
    # run by the command line only: no handler reaches it
    await anyio.to_thread.run_sync(_rebuild)


@traced
async def refresh(key: str) -> str:
    await anyio.to_thread.run_sync(_rebuild)  # want: MCP101
    return key


async def cli() -> None:
    await rebuild_index()


@mcp.tool()
async def get(key: str) -> str:
    return await lookup(key)


@mcp.tool()
async def update(key: str) -> str:
    return await refresh(key)
