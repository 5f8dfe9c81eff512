"""A swallow nested in an except body that ends by re-raising the outer
exception (keboola tools/sql.py): the outer raise propagates the cancellation."""

import asyncio
import contextlib

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("nested")


async def _drain(*tasks: asyncio.Task) -> None:
    await asyncio.shield(asyncio.gather(*tasks, return_exceptions=True))


async def _watch(request: object) -> None:
    await asyncio.sleep(1)


@mcp.tool()
async def query_data(sql: str) -> str:
    query_task = asyncio.create_task(asyncio.sleep(1, result=sql))
    disconnect_task = asyncio.create_task(_watch(None))
    try:
        done, _pending = await asyncio.wait([query_task, disconnect_task], return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        # suppress the drain's own CancelledError so the original exception
        # propagates via `raise`
        with contextlib.suppress(asyncio.CancelledError):
            await _drain(query_task, disconnect_task)
        raise
    return str(done)


@mcp.tool()
async def try_form(sql: str) -> str:
    task = asyncio.create_task(asyncio.sleep(1))
    try:
        await asyncio.sleep(1)
    except BaseException:
        try:
            await _drain(task)
        except asyncio.CancelledError:
            pass
        raise
    return sql


@mcp.tool()
async def in_finally(sql: str) -> str:
    task = asyncio.create_task(asyncio.sleep(1))
    try:
        await asyncio.sleep(1)
    finally:
        with contextlib.suppress(asyncio.CancelledError):
            await _drain(task)
    return sql


@mcp.tool()
async def outer_returns(sql: str) -> str:
    task = asyncio.create_task(asyncio.sleep(1))
    try:
        await asyncio.sleep(1)
    except BaseException:
        # _drain really yields, so the cancellation is raised again there
        # and swallowed by the inner except: that one is reported.
        try:
            await _drain(task)
        except asyncio.CancelledError:  # want: MCP104
            pass
        return "failed"
    return sql


@mcp.tool()
async def outer_swallows(sql: str) -> str:
    try:
        await asyncio.sleep(1)
    except BaseException:  # want: MCP104
        with contextlib.suppress(asyncio.CancelledError):
            print("no await: nothing raises the cancellation again")
        return "failed"
    return sql
