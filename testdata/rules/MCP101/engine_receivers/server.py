from mcp.server.fastmcp import FastMCP

from storage import Storage, count_again

mcp = FastMCP("engine-receivers")
store = Storage("sqlite+aiosqlite:///db.sqlite")


@mcp.tool()
async def asserted() -> int:
    return await store.asserted()


@mcp.tool()
async def early_exit() -> int:
    return await store.early_exit()


@mcp.tool()
async def from_factory() -> None:
    await store.from_factory()


@mcp.tool()
async def unguarded() -> None:
    await store.unguarded()


@mcp.tool()
async def passed_connection() -> int:
    assert store.engine is not None
    conn = await store.engine.connect()
    return await count_again(conn)
