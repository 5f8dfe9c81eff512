import asyncio


async def fetch(url: str) -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        print("fetch cancelled")
    return url
