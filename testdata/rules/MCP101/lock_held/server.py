import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("locks")
_limiter = anyio.CapacityLimiter(4)
MIGRATION_LOCK = asyncio.Lock()


class Store:
    def __init__(self) -> None:
        self._lock = anyio.Lock()
        self.guard = anyio.Semaphore(2)

    async def write(self, data: bytes) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(self._write, data)  # want: MCP101

    async def read(self) -> bytes:
        async with self.guard:
            return await anyio.to_thread.run_sync(self._read)  # want: MCP101

    def _write(self, data: bytes) -> None: ...

    def _read(self) -> bytes: ...


store = Store()


@mcp.tool()
async def write(data: str) -> str:
    await store.write(data.encode())
    return "ok"


@mcp.tool()
async def read() -> str:
    return (await store.read()).decode()


@mcp.tool()
async def migrate() -> str:
    async with MIGRATION_LOCK:
        await anyio.to_thread.run_sync(run_migrations)  # want: MCP101
    return "migrated"


@mcp.tool()
async def bounded(n: int) -> int:
    return await anyio.to_thread.run_sync(sum, range(n), limiter=_limiter)  # want: MCP101


@mcp.tool()
async def in_limiter(n: int) -> int:
    async with _limiter:
        return await anyio.to_thread.run_sync(sum, range(n))  # want: MCP101


@mcp.tool()
async def camel(n: int) -> int:
    async with dbLock:
        return await anyio.to_thread.run_sync(sum, range(n))  # want: MCP101


@mcp.tool()
async def unlocked(n: int) -> int:
    async with anyio.create_task_group():
        return await anyio.to_thread.run_sync(sum, range(n))  # want: MCP101


def run_migrations() -> None: ...


dbLock = anyio.Lock()
