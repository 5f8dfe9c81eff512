import anyio


class A:
    async def process(self, item: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, item)


class B:
    async def process(self, item: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, item)


class C:
    async def process(self, item: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, item)


class D:
    async def process(self, item: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, item)
