import time

import anyio


async def slow(x: int) -> int:
    # Served by weather/server.py; tests/test_tools.py registers it again on
    # a server of its own, which sorts first and is only listed.
    await anyio.to_thread.run_sync(time.sleep, x)  # want: MCP101
    return x


async def only_tested(x: int) -> int:
    # Registered only on the test's server, which is never served.
    await anyio.to_thread.run_sync(time.sleep, x)
    return x
