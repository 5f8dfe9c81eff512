from mcp.server.fastmcp import FastMCP

import clients
from storage import RefreshTokenStorage, rebuild

mcp = FastMCP("client-io")
storage = RefreshTokenStorage("sqlite+aiosqlite:///tokens.db")


@mcp.tool()
async def profile(user_id: str) -> str:
    return str(await storage.get_user_profile(user_id))


@mcp.tool()
async def revoke(user_id: str) -> bool:
    return await storage.delete_refresh_token(user_id)


@mcp.tool()
async def count() -> int:
    return await storage.count()


@mcp.tool()
async def rebuild_tool(url: str) -> str:
    return await rebuild(url)


@mcp.tool()
async def pg_pool(dsn: str) -> int:
    return await clients.with_asyncpg(await asyncpg_pool(dsn))


@mcp.tool()
async def pg_connect(dsn: str) -> int:
    return await clients.with_asyncpg_connect(dsn)


@mcp.tool()
async def sqlite(path: str) -> int:
    return await clients.with_aiosqlite(path)


@mcp.tool()
async def cache(url: str) -> int:
    return await clients.with_redis(url)


async def asyncpg_pool(dsn: str):
    import asyncpg

    return await asyncpg.create_pool(dsn)


@mcp.tool()
async def stream(send) -> None:
    await clients.with_stream(send)


@mcp.tool()
async def reader(reader, writer) -> bytes:
    return await clients.with_reader(reader, writer)


@mcp.tool()
async def drain(writer) -> None:
    await clients.drain_only(writer)
