import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

from errors import CancelledError

mcp = FastMCP("negatives")


async def work() -> str:
    await asyncio.sleep(1)
    return "x"


@mcp.tool()
async def exception_only() -> str:
    try:
        return await work()
    except Exception:
        return "failed"


@mcp.tool()
async def same_name_project_class() -> str:
    try:
        return await work()
    except CancelledError:
        return "ours"


@mcp.tool()
async def reraises() -> str:
    try:
        return await work()
    except asyncio.CancelledError:
        print("cancelled")
        raise


@mcp.tool()
async def dispatches(ctx_id: str) -> str:
    try:
        return await work()
    except BaseException as exc:
        if isinstance(exc, anyio.get_cancelled_exc_class()):
            raise exc
        return "failed"


@mcp.tool()
async def no_await() -> str:
    try:
        return str(1 / 0)
    except BaseException:
        return "failed"


@mcp.tool()
async def cleanup_in_finally() -> str:
    try:
        return await work()
    finally:
        try:
            await work()
        except BaseException:
            pass


@mcp.tool()
async def done_tasks() -> str:
    task = asyncio.ensure_future(work())
    done, pending = await asyncio.wait([task], timeout=1)
    for t in done:
        try:
            await t
        except asyncio.CancelledError:
            pass
    if task.done():
        try:
            await task
        except asyncio.CancelledError:
            pass
    return "ok"


async def not_reached() -> str:
    try:
        return await work()
    except asyncio.CancelledError:
        return "never called by a handler"
