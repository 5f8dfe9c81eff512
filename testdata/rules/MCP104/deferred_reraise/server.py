"""Cancellation held back until work finishes, then re-raised through a flag
(linkedin drivers/browser.py _run_deferring_cancels)."""

import asyncio
from typing import Any, Coroutine, TypeVar

import anyio
from mcp.server.fastmcp import FastMCP

T = TypeVar("T")

mcp = FastMCP("deferred")
_lock = asyncio.Lock()


async def _run_deferring_cancels(coroutine: Coroutine[Any, Any, T]) -> T:
    task = asyncio.create_task(coroutine)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return result


class Closer:
    def __init__(self) -> None:
        self.cancelled = False

    async def close(self, coroutine: Coroutine[Any, Any, T]) -> T:
        task = asyncio.create_task(coroutine)
        while True:
            try:
                result = await asyncio.shield(task)
                break
            except anyio.get_cancelled_exc_class():
                self.cancelled = True
        if self.cancelled:
            raise anyio.get_cancelled_exc_class()()
        return result


async def _run_forgetting_cancels(coroutine: Coroutine[Any, Any, T]) -> T:
    task = asyncio.create_task(coroutine)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:  # want: MCP104
            cancelled = True
    if cancelled:
        print("cancel held back and then lost")
    return result


async def _close_browser_locked() -> str:
    await asyncio.sleep(1)
    return "closed"


@mcp.tool()
async def close_browser() -> str:
    async with _lock:
        return await _run_deferring_cancels(_close_browser_locked())


@mcp.tool()
async def close_with_attribute_flag() -> str:
    return await Closer().close(_close_browser_locked())


@mcp.tool()
async def close_forgetting() -> str:
    return await _run_forgetting_cancels(_close_browser_locked())
