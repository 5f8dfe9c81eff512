import guard  # noqa: F401
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("guarded")


@mcp.tool()
async def roots(ctx: Context) -> str:
    found = await ctx.session.list_roots()  # want: MCP105
    return str(found)
