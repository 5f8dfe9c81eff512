"""Every import and alias form of the offloads."""
import functools
from functools import partial

import anyio
import anyio.to_thread as t
from anyio import to_process, to_interpreter, to_thread
from anyio.to_thread import run_sync as rs
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("aliases")
run_in_worker = anyio.to_thread.run_sync


def work(x=None):
    return x


@mcp.tool()
async def plain() -> str:
    return await anyio.to_thread.run_sync(work)  # want: MCP101


@mcp.tool()
async def module_alias() -> str:
    value = await t.run_sync(work, 1)  # want: MCP101
    return value


@mcp.tool()
async def from_module() -> None:
    await to_thread.run_sync(work, abandon_on_cancel=False)  # want: MCP101


@mcp.tool()
async def function_alias() -> None:
    await rs(work, cancellable=False)  # want: MCP101


@mcp.tool()
async def variable_alias() -> None:
    await run_in_worker(work)  # want: MCP101


@mcp.tool()
async def process() -> None:
    await to_process.run_sync(work)  # want: MCP101


@mcp.tool()
async def interpreter() -> None:
    await to_interpreter.run_sync(work)  # want: MCP101


@mcp.tool()
async def partial_called() -> None:
    await functools.partial(anyio.to_thread.run_sync, work)()  # want: MCP101


@mcp.tool()
async def partial_assigned() -> None:
    job = partial(rs, work, 2)
    await job()  # want: MCP101


@mcp.tool()
async def local_import() -> None:
    import anyio.to_thread as threads

    await threads.run_sync(work)  # want: MCP101
