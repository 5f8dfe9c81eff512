"""Helpers that await each other in a cycle, each swallowing the cancellation.

f swallows; a awaits b or f; b swallows, returns and otherwise awaits a. The
walk up from f's swallow meets a again inside b's callers: b's answer is that
of the whole cycle (a returns to the tool), not the one found while a was
still being walked.
"""

import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("call-cycle")


async def f() -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        return "f cancelled"
    return "f"


async def a(n: int) -> str:
    if n > 0:
        return await b(n)
    return await f()


async def b(n: int) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        return "cancelled"
    return await a(n - 1)


@mcp.tool()
async def tool(n: int) -> str:
    return await a(n)


# The same cycle, with a checkpoint in the only handler above it: leaving
# any of its functions after a swallow meets the checkpoint before the
# request ends.


async def quiet_f() -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        return "f cancelled"
    return "f"


async def quiet_a(n: int) -> str:
    if n > 0:
        return await quiet_b(n)
    return await quiet_f()


async def quiet_b(n: int) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        return "cancelled"
    return await quiet_a(n - 1)


@mcp.tool()
async def checked_tool(n: int) -> str:
    result = await quiet_a(n)
    await anyio.lowlevel.checkpoint()
    return result
