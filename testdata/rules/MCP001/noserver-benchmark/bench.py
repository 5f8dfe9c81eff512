"""Times tool calls against a server that lives in another repository."""

import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def run(n: int) -> float:
    params = StdioServerParameters(command=sys.executable, args=["-m", "some_server"])
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        t0 = time.perf_counter()
        for _ in range(n):
            await s.call_tool("echo", {"text": "x"})
        return time.perf_counter() - t0


print(anyio.run(run, 100))
