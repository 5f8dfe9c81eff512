"""fastmcp 3.x servers built by the framework's factories, not by FastMCP(...)."""

import httpx
from fastapi import FastAPI
from fastmcp import FastMCP
from fastmcp.server import create_proxy

from registry import Catalog

api = FastAPI()
spec = {"openapi": "3.1.0", "paths": {}}


def build_api_server() -> None:
    # The server variable lives in a factory function, as in real servers.
    mcp = FastMCP.from_openapi(openapi_spec=spec, client=httpx.AsyncClient())

    @mcp.tool()
    def list_endpoints() -> list:  # want: MCP103
        return sorted(spec["paths"])

    @mcp.tool(run_in_thread=False)
    def version() -> str:
        return "1"

    @mcp.tool()
    async def ping() -> str:
        return "pong"

    mcp.run()


web = FastMCP.from_fastapi(app=api)


@web.tool
def health() -> dict:  # want: MCP103
    return {"ok": True}


class Gateway(FastMCP):
    """A project subclass inherits the class methods."""


gateway = Gateway.as_proxy("http://localhost:9000/mcp")


@gateway.prompt()
def summary(topic: str) -> str:  # want: MCP103
    return f"Summarise {topic}"


proxy = create_proxy("http://localhost:9001/mcp")


@proxy.tool
def local_only(n: int) -> int:  # want: MCP103
    return n * 2


# A project class with a from_openapi class method is not a server.
catalog = Catalog.from_openapi(spec)


@catalog.tool()
def not_a_handler() -> str:
    return "catalog entry"


if __name__ == "__main__":
    build_api_server()
