# mcp>=1.0 with no lock, and code that runs only on mcp 1.x: the versions it
# runs on include those below 1.27.0. The fix raises the floor within 1.x
# (>=1.27.0,<2), never to 2.x, where this import fails.
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("roots")


@mcp.tool()
async def roots(ctx: Context) -> str:
    result = await ctx.session.list_roots()  # want: MCP105
    return ", ".join(str(r.uri) for r in result.roots)
