"""A decorator that registers an async wrapper running each sync function in a
thread it abandons on cancel: what fastmcp serves is async."""

import functools

import anyio
from fastmcp import FastMCP

mcp = FastMCP("wrapped-async")
_pending = []


def threaded_tool(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        return await anyio.to_thread.run_sync(
            functools.partial(func, *args, **kwargs), abandon_on_cancel=True
        )

    _pending.append(wrapper)
    return func


@threaded_tool
def slow_sum(a: int, b: int) -> int:
    return a + b


@threaded_tool
def slow_len(text: str) -> int:
    return len(text)


for w in _pending:
    mcp.tool()(w)
