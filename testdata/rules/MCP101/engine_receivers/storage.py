"""Clients kept in attributes and passed as arguments: their types come from
bindings in other methods and at call sites (the value-flow engine), and a
receiver that may be None counts once an assert or an early exit rules None
out."""

import anyio
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine


def migrate(url: str) -> None:
    print("migrating", url)


class Storage:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine | None = None
        self.made = None

    def _build(self):
        return create_async_engine(self.url)

    async def open(self) -> None:
        self.engine = create_async_engine(self.url)
        self.made = self._build()

    async def asserted(self) -> int:
        await anyio.to_thread.run_sync(migrate, self.url)
        assert self.engine is not None, "open() not called"
        conn = await self.engine.connect()
        return await count_rows(conn)

    async def early_exit(self) -> int:
        if self.engine is None:
            raise RuntimeError("open() not called")
        await anyio.to_thread.run_sync(migrate, self.url)
        conn = await self.engine.connect()
        return await count_rows(conn)

    async def from_factory(self) -> None:
        await anyio.to_thread.run_sync(migrate, self.url)
        if self.made is not None:
            await self.made.dispose()
        else:
            await anyio.lowlevel.checkpoint()

    async def unguarded(self) -> None:
        await anyio.to_thread.run_sync(migrate, self.url)  # want: MCP101
        await self.engine.dispose()


async def count_rows(conn) -> int:
    result = await conn.execute("SELECT count(*) FROM t")
    return result.scalar_one()


async def count_again(conn) -> int:
    await anyio.to_thread.run_sync(migrate, "again")
    result = await conn.execute("SELECT 1")
    return result.scalar_one()
