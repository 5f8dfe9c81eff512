from mcp.server.fastmcp import Context, FastMCP

from worker import Job

mcp = FastMCP("jobs")


@mcp.tool()
async def run(data: str, ctx: Context) -> str:
    return await Job(ctx).run(data)


@mcp.tool()
async def run_quiet(data: str, ctx: Context) -> str:
    return await Job(ctx).run_quiet(data)


if __name__ == "__main__":
    mcp.run()
