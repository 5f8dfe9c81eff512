from asyncer import asyncify
import asyncer
from fastapi.concurrency import contextmanager_in_threadpool, iterate_in_threadpool
from fastapi.concurrency import run_in_threadpool as fastapi_run
from mcp.server.fastmcp import FastMCP
from starlette.concurrency import run_in_threadpool

mcp = FastMCP("wrappers")


def work(x=None):
    return x


@mcp.tool()
async def starlette_pool(x: int) -> int:
    return await run_in_threadpool(work, x)  # want: MCP101


@mcp.tool()
async def fastapi_pool(x: int) -> None:
    await fastapi_run(work, x)  # want: MCP101


@mcp.tool()
async def iterate(items: list) -> list:
    out = []
    async for item in iterate_in_threadpool(iter(items)):  # want: MCP101
        out.append(item)
    return out


@mcp.tool()
async def context(cm) -> None:
    async with contextmanager_in_threadpool(cm) as value:  # want: MCP101
        print(value)


@mcp.tool()
async def asyncify_inline(x: int) -> int:
    return await asyncify(work)(x)  # want: MCP101


@mcp.tool()
async def asyncify_assigned(x: int) -> None:
    call = asyncer.asyncify(work)
    await call(x)  # want: MCP101


@mcp.tool()
async def asyncify_abandon(x: int) -> int:
    return await asyncify(work, abandon_on_cancel=True)(x)
