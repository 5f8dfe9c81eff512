import anyio

from core.base import BaseServer

app = BaseServer("srv")


def work() -> int:
    return 1


@app.tool()
async def slow() -> int:
    return await anyio.to_thread.run_sync(work)  # want: MCP101
