import anyio
from mcp.server.fastmcp import FastMCP


class Files:
    def __init__(self):
        self.mcp = FastMCP("files")
        self.register()

    def register(self):
        @self.mcp.tool()
        async def size(path: str) -> int:
            return await self.measure(path)

    async def measure(self, path: str) -> int:
        return await anyio.to_thread.run_sync(self._size, path)  # want: MCP101

    def _size(self, path):
        return len(path)



files = Files()
