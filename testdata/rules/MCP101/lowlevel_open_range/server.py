import anyio
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("convert")


def _convert(text: str) -> str:
    return text.upper()


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    out = await anyio.to_thread.run_sync(_convert, arguments["text"])  # want: MCP101
    return [types.TextContent(type="text", text=out)]
