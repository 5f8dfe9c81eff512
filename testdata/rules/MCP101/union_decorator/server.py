"""A decorator whose name either branch of an if binds: a tool under it runs
whichever wrapper the branch taken made, so each wrapper is handler code."""

import functools
import os

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("union-decorator")


def work() -> str:
    return "done"


if os.environ.get("OFFLOAD"):

    def offloaded(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            await anyio.to_thread.run_sync(work)  # want: MCP101
            return await fn(*args, **kwargs)

        return wrapper

else:

    def offloaded(fn):
        return fn


if os.environ.get("LOUD"):

    def logged(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            value = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            print(value)
            return await fn(*args, **kwargs)

        return wrapper

else:

    def logged(fn):
        return fn


@mcp.tool()
@offloaded
async def first() -> str:
    return "first"


@mcp.tool()
@logged
async def second() -> str:
    return "second"
