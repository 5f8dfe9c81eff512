"""Offloads named through function-local aliases and imports, helper chains and tool wrappers."""

import anyio
from mcp.server.fastmcp import FastMCP

from app import helpers

mcp = FastMCP("aliases")


def work() -> int:
    return 1


@mcp.tool()
async def local_alias() -> int:
    run_sync = anyio.to_thread.run_sync
    return await run_sync(work)  # want: MCP101


@mcp.tool()
async def local_import() -> int:
    from anyio.to_thread import run_sync

    return await run_sync(work)  # want: MCP101


@mcp.tool()
async def local_module_alias() -> int:
    import anyio.to_thread as threads

    return await threads.run_sync(work)  # want: MCP101


@mcp.tool()
async def local_alias_abandons() -> int:
    run_sync = anyio.to_thread.run_sync
    return await run_sync(work, abandon_on_cancel=True)


@mcp.tool()
async def local_name_is_not_an_offload() -> int:
    run_sync = helpers.run_inline
    return await run_sync(work)


@mcp.tool()
async def through_modules() -> int:
    return await helpers.outer(work)


@mcp.tool()
def blocking() -> int:
    return work()


def wrap_tools_in_threads() -> None:
    """Turn every sync tool into an async closure that waits for a thread."""
    for tool in mcp._tool_manager.list_tools():
        fn = tool.fn

        async def call(*args, __fn=fn, **kwargs):
            return await anyio.to_thread.run_sync(lambda: __fn(*args, **kwargs))  # want: MCP101

        tool.fn = call


def wrap_tools_unused() -> None:
    """Nothing calls this: its closures never replace a tool."""
    for tool in mcp._tool_manager.list_tools():
        fn = tool.fn

        async def call2(*args, **kwargs):
            return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))

        tool.fn = call2


wrap_tools_in_threads()
