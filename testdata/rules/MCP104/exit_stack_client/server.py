# The server opens its client once, on an AsyncExitStack, and keeps it in a
# name the getter declares nonlocal: the tools' calls on it reach the client's
# methods.
import asyncio
from contextlib import AsyncExitStack

from mcp.server.fastmcp import FastMCP


class Client:
    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def write(self, text: str) -> None:
        try:
            await asyncio.sleep(1)
        except BaseException as exc:  # want: MCP104
            raise RuntimeError("write failed") from exc

    async def read(self) -> str:
        try:
            await asyncio.sleep(1)
        except BaseException:  # re-raised: the cancellation goes on
            raise
        return "text"


def create_server() -> FastMCP:
    client = None
    stack = AsyncExitStack()

    async def get_client() -> Client:
        nonlocal client
        if client is None:
            client = await stack.enter_async_context(Client())
        return client

    mcp = FastMCP("exit-stack-client")

    @mcp.tool()
    async def write(text: str) -> str:
        rag = await get_client()
        try:
            await rag.write(text)
        except Exception:
            return "failed"
        return "ok"

    @mcp.tool()
    async def read() -> str:
        rag = await get_client()
        return await rag.read()

    return mcp


mcp = create_server()
