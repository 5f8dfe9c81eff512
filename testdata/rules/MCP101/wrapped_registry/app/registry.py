"""A decorator that keeps (name, per-call wrapper) pairs for later registration."""

import functools
import inspect
from typing import Any, cast

_collected: list[tuple[str, Any]] = []


def traced_tool():
    def decorator(func):
        if inspect.iscoroutinefunction(func):
            async_func = cast(Any, func)

            @functools.wraps(async_func)
            async def async_wrapper(*args, **kwargs):
                return await async_func(*args, **kwargs)

            wrapper = cast(Any, async_wrapper)
        else:

            @functools.wraps(func)
            def sync_wrapper(*args, **kwargs):
                return func(*args, **kwargs)

            wrapper = sync_wrapper
        _collected.append((func.__name__, wrapper))
        return wrapper

    return decorator


def register_all(server: Any) -> None:
    for _, wrapper in _collected:
        server.tool()(wrapper)
