"""A decorator that wraps each tool with logging and keeps it for later."""

import functools
import inspect
import logging
from typing import Any, Callable

log = logging.getLogger(__name__)

_collected: list[tuple[str, Callable[..., Any]]] = []


def traced_tool():
    def decorator(func):
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args, **kwargs):
                log.info("call %s", func.__name__)
                return await func(*args, **kwargs)

            wrapper = async_wrapper
        else:

            @functools.wraps(func)
            def sync_wrapper(*args, **kwargs):
                log.info("call %s", func.__name__)
                return func(*args, **kwargs)

            wrapper = sync_wrapper
        _collected.append((func.__name__, wrapper))
        return wrapper

    return decorator


def register_all(server: Any) -> None:
    for _, wrapper in _collected:
        server.tool()(wrapper)
