"""A shielded scope followed by a raise of another exception: a second response."""

import anyio
import httpx
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("raise-paths")
client = httpx.AsyncClient()


@mcp.tool()
async def shielded_then_raises(url: str, ctx: Context) -> str:
    with anyio.CancelScope(shield=True):  # want: MCP102
        resp = await client.get(url)
    if resp.status_code != 200:
        raise ToolError(f"status {resp.status_code}")
    await ctx.info("fetched")
    return resp.text


@mcp.tool()
async def shielded_then_checkpoint_then_raises(url: str, ctx: Context) -> str:
    with anyio.CancelScope(shield=True):
        resp = await client.get(url)
    await ctx.info("fetched")
    if resp.status_code != 200:
        raise ToolError(f"status {resp.status_code}")
    return resp.text
