import functools
from typing import Any

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("context-lookup")


def work() -> str:
    return "w"


class Log:
    async def info(self, msg: str) -> None:
        print(msg)  # never suspends


SETTINGS = {"context": Log(), "ctx": Log()}


@mcp.tool()
async def settings_get() -> str:
    r = await anyio.to_thread.run_sync(work)  # want: MCP101
    # Named like the MCP Context, but the project's own logger from a dict:
    # its info() never suspends, so it is no checkpoint.
    context = SETTINGS.get("context")
    await context.info("done")
    return r


@mcp.tool()
async def settings_subscript() -> str:
    r = await anyio.to_thread.run_sync(work)  # want: MCP101
    ctx = SETTINGS["ctx"]
    await ctx.info("done")
    return r


def logged(fn):
    # The wrapper takes the injected Context out of its own **kwargs: its
    # info() sends a message, a checkpoint.
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs: Any):
        r = await anyio.to_thread.run_sync(work)
        ctx = kwargs.get("ctx")
        await ctx.info("done")
        return r

    return wrapper


def logged_options(fn):
    # A dict named like kwargs that is not the wrapper's **kwargs parameter.
    @functools.wraps(fn)
    async def wrapper(*args, **params):
        kwargs = dict(SETTINGS)
        r = await anyio.to_thread.run_sync(work)  # want: MCP101
        ctx = kwargs.get("ctx")
        await ctx.info("done")
        return r

    return wrapper


@mcp.tool()
@logged
async def wrapped(ctx) -> str:
    return "x"


@mcp.tool()
@logged_options
async def wrapped_options(ctx) -> str:
    return "x"
