from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("fixed-floor")


@mcp.tool()
async def roots(ctx: Context) -> str:
    # mcp >= 1.27.0 cancels in-flight handlers when the transport closes.
    return str(await ctx.session.list_roots())
