"""Two decorators that collect per-call wrappers for later registration."""

import functools
from typing import Any

SHARED: list[tuple[str, Any]] = []
SOLO: list[Any] = []


def shared_tool(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    SHARED.append((func.__name__, wrapper))
    return wrapper


def solo_tool(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    SOLO.append(wrapper)
    return wrapper


def register(mcp: Any) -> None:
    for _, w in SHARED:
        mcp.tool()(w)
    for w in SOLO:
        mcp.tool(name=w.__name__)(w)
