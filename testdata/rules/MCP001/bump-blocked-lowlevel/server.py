import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("lowlevel")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=name)]


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return []
