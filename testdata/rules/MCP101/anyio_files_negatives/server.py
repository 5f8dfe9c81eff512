"""anyio file API calls that observe the cancellation, or are followed by a checkpoint."""
import pathlib

import anyio
from anyio import Path
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files-ok")


@mcp.tool()
async def exists(path: str) -> bool:
    # Path.exists passes abandon_on_cancel=True.
    return await anyio.Path(path).exists()


@mcp.tool()
async def stat(path: str) -> int:
    p = Path(path)
    st = await p.stat()
    return st.st_size


@mcp.tool()
async def checked(path: str) -> str:
    text = await anyio.Path(path).read_text()
    await anyio.lowlevel.checkpoint_if_cancelled()
    return text


@mcp.tool()
async def logged(path: str, ctx: Context) -> str:
    async with await anyio.open_file(path) as f:
        data = await f.read()
    await ctx.info("read")
    return data


@mcp.tool()
async def then_exists(path: str) -> bool:
    # The later wait abandons its worker, so it observes the cancel.
    await anyio.Path(path).write_text("x")
    return await anyio.Path(path).is_file()


@mcp.tool()
async def globbed(root: str) -> int:
    n = 0
    async for _ in anyio.Path(root).glob("*.py"):
        n += 1
    return n


@mcp.tool()
async def pure(path: str) -> str:
    # Not awaited: runs inline.
    return anyio.Path(path).with_suffix(".txt").as_posix()


@mcp.tool()
async def stdlib_path(path: str) -> str:
    # pathlib runs inline on the loop: no offload.
    return pathlib.Path(path).read_text()


class Local:
    async def read_text(self) -> str:
        return "local"


@mcp.tool()
async def same_method_name() -> str:
    return await Local().read_text()


@mcp.tool()
async def closed_then_logged(path: str, ctx: Context) -> str:
    async with await anyio.open_file(path) as f:
        return_value = await f.read()
    await ctx.report_progress(1, 1)
    return return_value


@mcp.tool()
async def return_inside_checked(path: str, ctx: Context) -> str:
    try:
        async with await anyio.open_file(path) as f:
            return await f.read()
    finally:
        await ctx.info("read")
