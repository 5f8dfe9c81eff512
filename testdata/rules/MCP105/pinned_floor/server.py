import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("lowlevel")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    session = server.request_context.session
    roots = await session.list_roots()  # want: MCP105
    return [types.TextContent(type="text", text=str(roots))]
