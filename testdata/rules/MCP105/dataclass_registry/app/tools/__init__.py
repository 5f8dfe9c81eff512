from mcp.server.fastmcp import Context

from ..types import Tool


async def ask(ctx: Context, message: str):
    return await ctx.elicit(message=message, schema=dict)  # want: MCP105


async def run_sql(ctx: Context, sql: str) -> str:
    answer = await ask(ctx, "Run " + sql + "?")
    return str(answer)


async def version() -> str:
    return "1"


DEFINITIONS = [{"func": run_sql}, {"func": version, "internal": True}]
tools = [Tool.create_from_dict(d) for d in DEFINITIONS]
