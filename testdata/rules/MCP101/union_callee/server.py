"""An awaited helper whose name either branch of an if binds: awaiting it
observes the cancel only if every definition it can be checkpoints."""

import os

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("union")


def work() -> str:
    return "done"


if os.environ.get("AUDIT"):

    async def record(value: str) -> None:
        await anyio.sleep(0)

else:

    async def record(value: str) -> None:
        print(value)


if os.environ.get("SLOW"):

    async def settle(value: str) -> None:
        await anyio.sleep(0.1)

else:

    async def settle(value: str) -> None:
        await anyio.lowlevel.checkpoint()


@mcp.tool()
async def only_one_checkpoints() -> str:
    value = await anyio.to_thread.run_sync(work)  # want: MCP101
    await record(value)
    return value


@mcp.tool()
async def both_checkpoint() -> str:
    value = await anyio.to_thread.run_sync(work)
    await settle(value)
    return value
