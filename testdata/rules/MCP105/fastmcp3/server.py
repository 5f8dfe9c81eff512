from fastmcp import Context, FastMCP

mcp = FastMCP("fastmcp3")


@mcp.tool
async def sample(topic: str, ctx: Context) -> str:
    reply = await ctx.sample(f"Write about {topic}")  # want: MCP105
    return reply.text


@mcp.tool
async def roots(ctx: Context) -> list:
    return await ctx.list_roots()  # want: MCP105
