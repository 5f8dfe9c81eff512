from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

from helpers import pick_root

mcp = FastMCP("low-floor")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def confirm(ctx: Context) -> str:
    answer = await ctx.elicit("Proceed?", schema=Confirm)  # want: MCP105
    await ctx.info("asked")
    return str(answer)


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    result = await ctx.session.create_message(messages=[], max_tokens=100)  # want: MCP105
    return str(result)


@mcp.tool()
async def root(ctx: Context) -> str:
    return await pick_root(ctx.session)


async def unused(ctx: Context) -> None:
    await ctx.session.list_roots()
