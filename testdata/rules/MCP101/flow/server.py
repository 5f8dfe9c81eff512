import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("flow")


def work(x=None):
    return x


@mcp.tool()
async def early_return(ctx: Context, flag: bool) -> str:
    value = await anyio.to_thread.run_sync(work)  # want: MCP101
    if flag:
        return value
    await ctx.info("slow path")
    return value


@mcp.tool()
async def loop_exits(items: list) -> list:
    out = []
    for item in items:
        out.append(await anyio.to_thread.run_sync(work, item))  # want: MCP101
    return out


@mcp.tool()
async def conditional_log(ctx: Context, flag: bool) -> None:
    value = await anyio.to_thread.run_sync(work)  # want: MCP101
    flag and await ctx.info("x")
    return value


@mcp.tool()
async def shielded() -> None:
    with anyio.CancelScope(shield=True):
        # MCP102 reports the shield; no keyword on the offload would help
        await anyio.to_thread.run_sync(work)
        await anyio.sleep(0)


@mcp.tool()
async def unknown_coroutine(ctx: Context) -> None:
    value = await anyio.to_thread.run_sync(work)  # want: MCP101
    await compute(value)


async def compute(value):
    return value


@mcp.tool()
async def helper_that_logs(ctx: Context) -> None:
    value = await anyio.to_thread.run_sync(work)
    await log_done(ctx)
    return value


async def log_done(ctx: Context) -> None:
    await ctx.info("done")


@mcp.tool()
async def while_true(ctx: Context) -> None:
    while True:
        ready = await anyio.to_thread.run_sync(work)
        await ctx.debug("polled")
        if ready:
            break
