from runtime import *
from helpers import *
from listed import *


@mcp.tool()
async def files(ctx: Context) -> str:
    return ",".join(await _allowed_roots(ctx))


@mcp.tool()
async def cached(ctx: Context) -> str:
    return ",".join(await _cached_roots(ctx) + await other_roots(ctx) + await public_roots(ctx))
