"""A low-level call_tool that dispatches through a field of a spec object."""

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, NamedTuple

import mcp.types as types
from mcp.server.lowlevel import Server

from tools import export, fetch, never_dispatched, parse, safe_fetch


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    handler: Callable[[dict[str, Any]], Awaitable[str]]


class Route(NamedTuple):
    name: str
    run: Callable[..., Awaitable[str]]


SPECS = (
    Spec(name="fetch", handler=fetch),
    Spec("safe_fetch", safe_fetch),
)
BY_NAME = {spec.name: spec for spec in SPECS}
ROUTES = [Route("parse", parse), Route(name="export", run=export)]


@dataclass
class Hook:
    handler: Callable[[dict[str, Any]], Awaitable[str]]


# A hook of another class, which no handler looks up: its handler does not
# run (spec.handler is a Spec's field, not a Hook's).
SPARE = Hook(handler=never_dispatched)

server = Server("field-dispatch")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    spec = BY_NAME.get(name)
    if spec is not None:
        text = await spec.handler(arguments)
    else:
        text = ""
        for route in ROUTES:
            if route.name == name:
                text = await route.run(arguments)
    return [types.TextContent(type="text", text=text)]
