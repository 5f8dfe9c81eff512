from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("star-import")


async def _allowed_roots(ctx: Context) -> list[str]:
    roots = await ctx.session.list_roots()  # want: MCP105
    return [str(r.uri) for r in roots.roots]


async def _cached_roots(ctx: Context) -> list[str]:
    return []


async def other_roots(ctx: Context) -> list[str]:
    return []


# Every name, the underscore ones too, is star-exported.
__all__ = [name for name in globals() if not name.startswith("__")]
