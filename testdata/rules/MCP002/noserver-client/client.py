import asyncio

from fastmcp import Client


async def main() -> None:
    async with Client("http://localhost:8000/mcp") as client:
        print(await client.call_tool("add", {"a": 1, "b": 2}))


asyncio.run(main())
