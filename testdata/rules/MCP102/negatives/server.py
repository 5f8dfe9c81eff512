import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("negatives")


async def write(doc: str) -> str:
    return doc


@mcp.tool()
async def checkpoint_after(doc: str) -> str:
    with anyio.CancelScope(shield=True):
        await write(doc)
    await anyio.lowlevel.checkpoint_if_cancelled()
    return "saved"


@mcp.tool()
async def progress_after(doc: str, ctx: Context) -> str:
    with anyio.CancelScope(shield=True):
        await write(doc)
    await ctx.report_progress(1, 1)
    return "saved"


@mcp.tool()
async def cleanup(doc: str) -> str:
    try:
        return await write(doc)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await write("rollback")
        raise
    finally:
        with anyio.CancelScope(shield=True):
            await write("close")


@mcp.tool()
async def not_shielded(doc: str, flag: bool) -> str:
    with anyio.CancelScope(shield=False):
        await write(doc)
    scope = anyio.CancelScope()
    with scope:
        await write(doc)
    return "saved"


async def unreached(doc: str) -> str:
    with anyio.CancelScope(shield=True):
        await write(doc)
    return "never a handler"
