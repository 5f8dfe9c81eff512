import anyio

from mysrv.base import Server

app = Server("tools")


def work() -> int:
    return 1


@app.tool()
async def slow() -> int:
    return await anyio.to_thread.run_sync(work)
