import inspect
import functools
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Entry:
    name: str
    handler: Callable[..., Any]


def authorized(name, handler):
    def mark(wrapper):
        setattr(wrapper, "_ok", True)
        return wrapper

    if inspect.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def guarded(*args, **kwargs):
            return await handler(*args, **kwargs)

        return mark(guarded)

    @functools.wraps(handler)
    def guarded(*args, **kwargs):
        return handler(*args, **kwargs)

    return mark(guarded)


def collector():
    entries = []
    handlers = []

    def tool(*, label: str):
        def collect(fn: Callable[..., Any]):
            entries.append(Entry(label, fn))
            handlers.append(fn)
            return fn

        return collect

    def register_all(mcp) -> None:
        for entry in entries:
            mcp.tool(authorized(entry.name, entry.handler), name=entry.name)

    return tool, register_all
