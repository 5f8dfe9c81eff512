"""Servers built in tests: one a client talks to, one mounted into a served
one or handed out by a fixture, serve their tools; one the test only
decorates, mounts into and inspects (magg's test_client_mounting) serves
nothing, so its sync tools cannot be cancelled."""

import pytest
from fastmcp import Client, FastMCP


@pytest.mark.asyncio
async def test_served_to_a_client():
    server = FastMCP("served")

    @server.tool()
    def echo(text: str) -> str:  # want: MCP103
        return text

    async with Client(server) as client:
        assert await client.call_tool("echo", {"text": "hi"})


@pytest.mark.asyncio
async def test_mounted_into_a_served_server():
    parent = FastMCP("parent")
    child = FastMCP("child")

    @child.tool
    def add(a: int, b: int) -> int:  # want: MCP103
        return a + b

    parent.mount(server=child, namespace="calc")
    async with Client(parent) as client:
        assert await client.list_tools()


@pytest.fixture
def fixture_server():
    server = FastMCP("fixture")

    @server.tool()
    def ping() -> str:  # want: MCP103
        return "pong"

    return server


@pytest.mark.asyncio
async def test_only_inspected():
    main = FastMCP("main")
    other = FastMCP("other")

    @main.tool
    def local_tool() -> str:
        return "local"

    main.mount(server=other, namespace="other")
    if hasattr(main, "_tool_manager"):
        print(main._tool_manager)
    assert main.name == "main"
