"""Other async database and network clients: awaiting their I/O methods is
a checkpoint."""

import asyncio

import aiosqlite
import anyio
import asyncpg
import redis.asyncio as aioredis
from anyio import to_thread
from anyio.abc import ObjectSendStream


def work() -> int:
    return 1


async def with_asyncpg(pool: asyncpg.Pool) -> int:
    n = await to_thread.run_sync(work)
    async with pool.acquire() as conn:
        await conn.execute("SELECT 1")
    return n


async def with_asyncpg_connect(dsn: str) -> int:
    n = await to_thread.run_sync(work)
    conn = await asyncpg.connect(dsn)
    return await conn.fetchval("SELECT $1", n)


async def with_aiosqlite(path: str) -> int:
    n = await to_thread.run_sync(work)
    async with aiosqlite.connect(path) as db:
        await db.commit()
    return n


async def with_redis(url: str) -> int:
    r = aioredis.from_url(url)
    n = await to_thread.run_sync(work)
    await r.set("n", n)
    return n


async def with_stream(send: ObjectSendStream[int]) -> None:
    n = await to_thread.run_sync(work)
    await send.send(n)


async def with_reader(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    await to_thread.run_sync(work)
    line = await reader.readline()
    return line


async def drain_only(writer: asyncio.StreamWriter) -> None:
    await to_thread.run_sync(work)  # want: MCP101
    writer.write(b"x")
    await writer.drain()  # returns at once unless the buffer is full
