"""Fix forms: the checkpoint needs `import anyio` here."""
from __future__ import annotations

import os

from anyio import to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("fixes")


def work(*args):
    return args


@mcp.tool()
async def name_taken(result: str) -> str:
    return await to_thread.run_sync(work, result)  # want: MCP101


@mcp.tool()
async def trailing_comment() -> None:
    value = await to_thread.run_sync(work)  # want: MCP101
    print(value)


@mcp.tool()
async def one_liner(flag: bool) -> None:
    if flag: await to_thread.run_sync(work)  # want: MCP101


@mcp.tool()
async def multi_line() -> tuple:
    return await to_thread.run_sync(  # want: MCP101
        work,
        os.sep,
    )


@mcp.tool()
async def nested_block(flag: bool) -> None:
    if flag:
        await to_thread.run_sync(work, flag=False)  # want: MCP101
    else:
        print("no")
