"""A low-level call_tool that dispatches to per-tool functions through dicts."""

import mcp.types as types
from mcp.server.lowlevel import Server

from tools import TOOLS, Exporter, parse, unknown

server = Server("dict-dispatch")
exporter = Exporter()


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name in TOOLS:
        text = await TOOLS[name](**arguments)
    else:
        local = {"parse": parse, "export": exporter.export}
        handler = local.get(name, unknown)
        text = await handler(**arguments)
    return [types.TextContent(type="text", text=text)]
