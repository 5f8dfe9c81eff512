from mcp.server.fastmcp import Context, FastMCP

from .planner import Echo, Mirror, Planner

mcp = FastMCP("planner")


@mcp.tool()
async def plan(goal: str, ctx: Context) -> str:
    return await Planner(ctx).plan(goal)


@mcp.tool()
async def roots(ctx: Context) -> list:
    return await Planner(ctx, session=ctx.session).roots()


@mcp.tool()
async def echo(text: str) -> str:
    return await Echo(Mirror()).sample(text)


if __name__ == "__main__":
    mcp.run()
