"""A module of a namespace package (app/tools has no __init__.py)."""

import anyio


async def find(query: str) -> str:
    return await anyio.to_thread.run_sync(str, query)  # want: MCP101


async def unused(query: str) -> str:
    # no handler reaches it
    return await anyio.to_thread.run_sync(str, query)
