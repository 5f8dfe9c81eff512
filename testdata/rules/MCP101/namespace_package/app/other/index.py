import anyio


async def lookup(key: str) -> str:
    return await anyio.to_thread.run_sync(str, key)  # want: MCP101
