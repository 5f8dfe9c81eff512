"""A client script: no server, no handler."""
import anyio
from mcp import ClientSession


async def main(session: ClientSession):
    await session.initialize()
    data = await anyio.to_thread.run_sync(open, "input.txt")
    return data


if __name__ == "__main__":
    anyio.run(main)
