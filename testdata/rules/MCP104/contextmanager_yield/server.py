# The yield of an @asynccontextmanager is where the async with body runs: a
# cancellation of the body is thrown in there on exit, so a try around the
# yield catches it as if the yield were an await.
import asyncio
from contextlib import asynccontextmanager

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("cm-yield")


async def rollback() -> bool:
    return False


@asynccontextmanager
async def transaction():
    try:
        yield
    except BaseException as exc:  # want: MCP104
        if not await rollback():
            raise RuntimeError("rollback failed") from exc
        raise


@asynccontextmanager
async def logged():
    try:
        yield
    except BaseException:
        await rollback()
        raise  # the cancellation goes on


def numbers():
    try:
        yield 1
    except BaseException:  # a sync generator: nothing is awaited there
        return


@mcp.tool()
async def add() -> str:
    try:
        async with transaction():
            await asyncio.sleep(1)
        async with logged():
            await asyncio.sleep(1)
    except Exception:
        return "failed"
    return str(sum(numbers()))
