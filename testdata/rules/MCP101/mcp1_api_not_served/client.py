# A client script of the project: the server never imports it.
import asyncio

from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main() -> None:
    async with stdio_client(StdioServerParameters(command="python", args=["server.py"])) as (r, w):
        async with ClientSession(r, w) as session:
            try:
                await session.call_tool("read_file", {"path": "README"})
            except McpError as e:
                print(e)


if __name__ == "__main__":
    asyncio.run(main())
