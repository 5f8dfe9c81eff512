"""A helper swallows the cancellation around a wait; the handler then returns normally."""

from mcp.server.fastmcp import Context, FastMCP

from jobs import Settler, drain, retry, wait_quietly, wait_then_checkpoint

mcp = FastMCP("helper-swallow")


@mcp.tool()
async def poll(job_id: str) -> str:
    await wait_quietly(job_id)
    return "done"


@mcp.tool()
async def poll_and_report(job_id: str, ctx: Context) -> str:
    await wait_quietly(job_id)
    await ctx.info(f"job {job_id} finished")  # real I/O: the cancel is re-delivered here
    return "done"


@mcp.tool()
async def poll_checkpointed(job_id: str) -> str:
    await wait_then_checkpoint(job_id)
    return "done"


@mcp.tool()
async def settle_job(job_id: str) -> str:
    return await retry(lambda: Settler().run(job_id))


@mcp.tool()
async def drain_job(job_id: str) -> str:
    await drain(job_id)
    return "drained"
