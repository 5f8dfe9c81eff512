"""Registrations through a name that holds the decorator or the method."""

import functools

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("registration-variable")
_original_tool = mcp.tool


def _logging_tool(**kwargs):
    # Replaces mcp.tool below: every @mcp.tool() def is registered as
    # the async wrapper this makes, through the saved original method.
    decorator = _original_tool(**kwargs)

    def wrapper(fn):
        @functools.wraps(fn)
        async def logged(*args, **kw):
            def run():
                return fn(*args, **kw)

            result = await anyio.to_thread.run_sync(run)  # want: MCP101
            return result

        return decorator(logged)

    return wrapper


mcp.tool = _logging_tool


@mcp.tool()
def set_root(path: str) -> str:
    return path


async def fetch(url: str) -> str:
    return await anyio.to_thread.run_sync(str, url)  # want: MCP101


async def unregistered(url: str) -> str:
    # kept in a name that never registers it
    return await anyio.to_thread.run_sync(str, url)


register = mcp.tool(name="fetch")
register(fetch)
keep = functools.partial(str, unregistered)
