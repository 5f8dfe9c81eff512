# Calling an instance runs its class's __call__: what it awaits is in the
# handler's reach.
import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("callable")


class Reader:
    async def __call__(self, path: str) -> str:
        return await anyio.to_thread.run_sync(open, path)  # want: MCP101


class Loader:
    async def __call__(self, path: str) -> str:
        return await anyio.to_thread.run_sync(open, path)  # covered: the caller's next await checkpoints


class Notifier:
    def __init__(self) -> None:
        self.load = Loader()

    async def __call__(self, path: str) -> str:
        await asyncio.sleep(0)
        return path


read = Reader()


@mcp.tool()
async def get(path: str) -> str:
    return await read(path)


@mcp.tool()
async def get_then_notify(path: str) -> str:
    data = await Notifier().load(path)
    await Notifier()(path)  # its __call__ checkpoints: the cancel is delivered here
    return data
