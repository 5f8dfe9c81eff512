# /// script
# dependencies = [
#     "mcp>=1.27.0,<2",  # note: MCP001
# ]
# ///
# A client script beside a requirements.txt: no handler anywhere, so neither
# pin can crash a server.
import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main() -> None:
    params = StdioServerParameters(command="some-server")
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            print(await session.list_tools())


anyio.run(main)
