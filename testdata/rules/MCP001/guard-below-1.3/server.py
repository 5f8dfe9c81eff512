# mcp 1.1.2 (locked) has no RequestResponder.cancel (cancellation came in 1.3.0): a
# guard module that wraps it would fail at import and stop the server from
# starting, so the guard is not offered on the lock (only the advice to move).
import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

server = Server("old")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=name)]


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
