# A with statement runs its context manager's __aenter__ and __aexit__ (a
# class's, not a @contextmanager function's): what they await is in the
# handler's reach, and an __aenter__ that checkpoints is a checkpoint.
import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("cm")


class Pause:
    def __init__(self, storage):
        self.storage = storage

    async def __aenter__(self):
        await anyio.to_thread.run_sync(print)  # want: MCP101
        return self

    async def __aexit__(self, *exc):
        return None


class Flush:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await anyio.to_thread.run_sync(print)  # want: MCP101


class Connected:
    async def __aenter__(self):
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc):
        return None


class Checked(Connected):
    pass


class Committed:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await asyncio.sleep(0)


flush = Flush()


@mcp.tool()
async def paused() -> str:
    async with Pause(None):
        pass
    return "paused"


@mcp.tool()
async def flushed() -> str:
    async with flush as f:
        pass
    return "flushed"


@mcp.tool()
async def connected(path: str) -> str:
    data = await anyio.to_thread.run_sync(open, path)  # the inherited __aenter__ after it checkpoints
    async with Checked():
        pass
    return str(data)


@mcp.tool()
async def body_checkpoint() -> str:
    async with Pause(None):
        await asyncio.sleep(1)  # the cancel is delivered here, after __aenter__
    return "done"


@mcp.tool()
async def committed(path: str) -> str:
    async with Committed():
        data = await anyio.to_thread.run_sync(open, path)  # leaving awaits an __aexit__ that checkpoints
    return str(data)
