import anyio


class FileBackend:
    async def download(self, url: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, url)  # possibly: MCP101

    async def upload(self, url: str, data: bytes) -> str:
        return await anyio.to_thread.run_sync(str.lower, url)

    async def render(self, url: str) -> str:
        return await anyio.to_thread.run_sync(str.title, url)

    async def stat(self, path: str) -> str:
        return await anyio.to_thread.run_sync(str.strip, path)  # want: MCP101


Backend = FileBackend
