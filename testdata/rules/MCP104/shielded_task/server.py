# try: await asyncio.shield(t) / except BaseException: await t. The shield
# raises because the handler was cancelled while t runs on: t is pending in
# the except body, so awaiting it yields and the cancellation is delivered
# again there. A task the try did not shield (here one already done) is no
# such checkpoint.
import asyncio
import contextlib

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shielded-task")


def release() -> bool:
    return True


@mcp.tool()
async def cleanup() -> bool:
    ok = False
    task = asyncio.create_task(asyncio.to_thread(release))
    try:
        ok = await asyncio.shield(task)
    except BaseException:
        with contextlib.suppress(Exception):
            ok = await task
    return ok


@mcp.tool()
async def awaited_before() -> bool:
    task = asyncio.create_task(asyncio.to_thread(release))
    ok = await task  # done from here on
    try:
        await asyncio.shield(asyncio.sleep(1))
    except BaseException:  # want: MCP104
        ok = await task  # done: returns at once, nothing yields
    return ok
