import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("crlf")


@mcp.tool()
async def save() -> str:
    with anyio.CancelScope(shield=True):  # want: MCP102
        await anyio.sleep(1)  # flush
    return "ok"
