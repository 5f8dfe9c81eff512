"""Paths that end by raising: another exception is a second response, the cancellation is not."""

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("raise-paths")


def work(x=None):
    return x


# ---- must flag: the handler ends by raising another exception, no checkpoint first


@mcp.tool()
async def raises_tool_error_on_every_path(path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)  # want: MCP101
    if value is None:
        raise ToolError("not found")
    raise ToolError(f"unsupported: {value}")


@mcp.tool()
async def raises_on_one_path(ctx: Context, path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)  # want: MCP101
    if value is None:
        raise ToolError("not found")
    await ctx.info("found")
    return value


@mcp.tool()
async def raises_from_other(path: str) -> str:
    try:
        await anyio.sleep(1)
    except BaseException as exc:
        await anyio.to_thread.run_sync(work, path)  # want: MCP101
        raise ToolError("interrupted") from exc


async def validated(value):
    """Raises before its checkpoint: awaiting it is no checkpoint on that path."""
    if not value:
        raise ValueError("empty")
    await anyio.sleep(0)
    return value


@mcp.tool()
async def helper_raises(path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)  # want: MCP101
    return await validated(value)


async def load(path):
    value = await anyio.to_thread.run_sync(work, path)  # want: MCP101
    if value is None:
        raise LookupError(path)
    await anyio.sleep(0)
    return value


@mcp.tool()
async def caller_lets_the_helper_raise(path: str) -> str:
    return await load(path)


@mcp.tool()
async def caller_catches_and_returns(path: str) -> str:
    try:
        return await load(path)
    except LookupError:
        return "missing"


# ---- must not flag


@mcp.tool()
async def bare_reraise(path: str) -> str:
    try:
        await anyio.sleep(1)
    except BaseException:
        await anyio.to_thread.run_sync(work, path)
        raise
    return path


@mcp.tool()
async def reraise_by_name(path: str) -> str:
    try:
        await anyio.sleep(1)
    except anyio.get_cancelled_exc_class() as exc:
        await anyio.to_thread.run_sync(work, path)
        raise exc
    return path


@mcp.tool()
async def raise_after_info(ctx: Context, path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)
    await ctx.info("loaded")
    if value is None:
        raise ToolError("not found")
    return value


@mcp.tool()
async def raise_after_sleep(path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)
    await anyio.sleep(0)
    raise ToolError(f"unsupported: {value}")


@mcp.tool()
async def raise_caught_by_own_try(ctx: Context, path: str) -> str:
    try:
        value = await anyio.to_thread.run_sync(work, path)
        if value is None:
            raise LookupError(path)
    except LookupError:
        await ctx.warning("missing")
        return "missing"
    await ctx.info("loaded")
    return value


async def checked(value):
    await anyio.sleep(0)
    if not value:
        raise ValueError("empty")
    return value


@mcp.tool()
async def helper_raises_after_checkpoint(path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)
    return await checked(value)


@mcp.tool()
async def helper_raise_caught_and_checkpointed(ctx: Context, path: str) -> str:
    value = await anyio.to_thread.run_sync(work, path)
    try:
        return await validated(value)
    except Exception:  # a helper's raise is not matched by class: a catch-all catches it
        await ctx.warning("empty")
        return ""


async def load_checked(path):
    """Its raise comes out of the call into a caller that catches it and checkpoints."""
    value = await anyio.to_thread.run_sync(work, path)
    if value is None:
        raise LookupError(path)
    await anyio.sleep(0)
    return value


@mcp.tool()
async def caller_catches_and_checkpoints(ctx: Context, path: str) -> str:
    try:
        return await load_checked(path)
    except Exception:
        await ctx.warning("missing")
        return ""
