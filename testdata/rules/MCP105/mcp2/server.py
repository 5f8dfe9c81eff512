from fastmcp import Context, FastMCP

mcp = FastMCP("mcp2")


@mcp.tool
async def roots(ctx: Context) -> list:
    return await ctx.list_roots()
