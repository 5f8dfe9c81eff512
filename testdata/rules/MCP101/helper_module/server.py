from mcp.server.fastmcp import Context, FastMCP

from . import helpers
from .helpers import checked, hash_file

mcp = FastMCP("helpers")


@mcp.tool()
async def digest(path: str) -> str:
    return await hash_file(path)


@mcp.tool()
async def digest_logged(path: str, ctx: Context) -> str:
    value = await helpers.read_file(path)
    await ctx.info("read")
    return value


@mcp.tool()
async def digest_checked(path: str) -> str:
    return await checked(path)
