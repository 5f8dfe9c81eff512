"""Token storage shaped like nextcloud auth/storage.py: the Alembic migration
runs in a worker thread, and every caller then does SQLAlchemy async I/O,
which really yields and observes the cancellation."""

from contextlib import asynccontextmanager

import sqlalchemy as sa
from anyio import to_thread
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, async_sessionmaker, create_async_engine


def upgrade_database(url: str, rev: str) -> None:
    pass


class _DBConn:
    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn

    async def commit(self) -> None:
        await self._conn.commit()


class RefreshTokenStorage:
    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self._initialized = False

    async def initialize(self) -> None:
        if self._initialized:
            return
        self.engine = create_async_engine(self.database_url)
        async with self.engine.connect() as conn:
            has_alembic = await conn.run_sync(lambda c: sa.inspect(c).has_table("alembic_version"))
        if has_alembic:
            await to_thread.run_sync(upgrade_database, self.database_url, "head")
        self._initialized = True

    @asynccontextmanager
    async def _db(self):
        conn = await self.engine.connect()
        try:
            yield _DBConn(conn)
        finally:
            await conn.close()

    async def get_user_profile(self, user_id: str) -> str | None:
        if not self._initialized:
            await self.initialize()
        async with AsyncSession(self.engine) as session:
            result = await session.execute(sa.text("SELECT profile FROM tokens WHERE user_id = :u"), {"u": user_id})
            return result.scalar_one_or_none()

    async def delete_refresh_token(self, user_id: str) -> bool:
        if not self._initialized:
            await self.initialize()
        async with self._db() as db:
            await db.commit()
        return True

    async def count(self) -> int:
        await self.initialize()
        maker = async_sessionmaker(self.engine)
        async with maker() as session:
            return await session.scalar(sa.text("SELECT count(*) FROM tokens"))


async def rebuild(url: str) -> str:
    engine = create_async_engine(url)
    await to_thread.run_sync(upgrade_database, url, "head")  # want: MCP101
    async with AsyncSession(engine) as session:
        session.add_all([])
        await session.close()
    return "rebuilt"
