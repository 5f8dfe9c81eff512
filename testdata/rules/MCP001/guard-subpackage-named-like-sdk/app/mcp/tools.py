import asyncio
import time

def register(server):
    @server.tool()
    async def slow(x: int) -> int:
        return await asyncio.to_thread(time.sleep, x)
