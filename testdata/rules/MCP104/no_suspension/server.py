"""A cancellation is delivered only where the task suspends.

Awaiting a project coroutine that awaits nothing that can suspend runs it to
its end without yielding to the event loop: no cancellation can arrive inside
the try, so its except swallows nothing. A coroutine that can suspend (at a
sleep, through another coroutine, through one mcplint cannot follow, a
decorated or a recursive one) still can.
"""

import asyncio
import functools

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("no-suspension")

RANKINGS = {"a": 1}


async def static_rankings() -> dict:
    return dict(RANKINGS)


async def load_rankings() -> dict:
    data = await static_rankings()
    return {k: v + 1 for k, v in data.items()}


async def fetch_rankings() -> dict:
    await asyncio.sleep(0.1)
    return dict(RANKINGS)


async def load_fetched() -> dict:
    return await fetch_rankings()


async def countdown(n: int) -> int:
    if n <= 0:
        return 0
    return await countdown(n - 1)


def logged(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        await asyncio.sleep(0)
        return await fn(*args, **kwargs)

    return wrapper


@logged
async def decorated_rankings() -> dict:
    return dict(RANKINGS)


@mcp.tool()
async def static_only() -> str:
    try:
        rankings = await load_rankings()
    except:  # noqa: E722
        return "failed"
    return str(rankings)


@mcp.tool()
async def sleeps_below() -> str:
    try:
        rankings = await load_fetched()
    except:  # noqa: E722  # want: MCP104
        return "failed"
    return str(rankings)


@mcp.tool()
async def recursive() -> str:
    try:
        n = await countdown(3)
    except BaseException:  # want: MCP104
        return "failed"
    return str(n)


@mcp.tool()
async def through_decorator() -> str:
    try:
        rankings = await decorated_rankings()
    except BaseException:  # want: MCP104
        return "failed"
    return str(rankings)


@mcp.tool()
async def argument_suspends() -> str:
    try:
        rankings = await static_rankings_of(await fetch_rankings())
    except BaseException:  # want: MCP104
        return "failed"
    return str(rankings)


async def static_rankings_of(data: dict) -> dict:
    return dict(data)
