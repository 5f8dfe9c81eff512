"""The rest of the offload catalogue: trio, Starlette's UploadFile, asgiref, aiofiles."""
import asyncio

import aiofiles
import aiofiles.os
import anyio
import trio
from asgiref.sync import sync_to_async
from fastapi import UploadFile
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("catalogue")


def work(x=None):
    return x


@mcp.tool()
async def trio_thread() -> str:
    # abandon_on_cancel=False is trio's default too.
    return await trio.to_thread.run_sync(work)  # want: MCP101


@mcp.tool()
async def trio_thread_false() -> None:
    await trio.to_thread.run_sync(work, abandon_on_cancel=False)  # want: MCP101


@mcp.tool()
async def trio_path(path: str) -> str:
    return await trio.Path(path).read_text()  # want: MCP101


@mcp.tool()
async def trio_file(path: str) -> str:
    # Leaving the async with runs trio's aclose: a close under a shield,
    # then checkpoint_if_cancelled(), which covers the read: no finding.
    async with await trio.open_file(path) as f:
        data = await f.read()
    return data


@mcp.tool()
async def trio_file_kept(path: str) -> str:
    f = await trio.open_file(path)
    data = await f.read()  # want: MCP101
    return data


@mcp.tool()
async def upload(file: UploadFile) -> int:
    data = await file.read()  # want: MCP101
    return len(data)


@mcp.tool()
async def trio_abandoned() -> str:
    return await trio.to_thread.run_sync(work, abandon_on_cancel=True)


@mcp.tool()
async def trio_legacy() -> str:
    return await trio.to_thread.run_sync(work, cancellable=True)


@mcp.tool()
async def asgiref_wrapped() -> str:
    # sync_to_async awaits run_in_executor through asyncio.shield; on a cancel
    # it cancels that future and awaits it, which raises at once.
    return await sync_to_async(work)(1)


@mcp.tool()
async def asgiref_after() -> str:
    value = await anyio.to_thread.run_sync(work)
    return await sync_to_async(work, thread_sensitive=True)(value)


@mcp.tool()
async def aiofiles_after() -> str:
    value = await anyio.to_thread.run_sync(work)
    async with aiofiles.open("out.txt", "w") as f:
        await f.write(str(value))
    return value


@mcp.tool()
async def aiofiles_os_after() -> str:
    value = await anyio.to_thread.run_sync(work)
    await aiofiles.os.remove("out.txt")
    return value


@mcp.tool()
async def asyncio_after() -> str:
    value = await trio.to_thread.run_sync(work)
    return await asyncio.to_thread(work, value)
