"""Test servers built by a helper and handed to project helpers: a server
only inspected serves nothing; one a helper runs, or a client talks to,
serves its tools."""

import pytest
from fastmcp import Client, FastMCP

from lib.icons import count_tools, serve, tool_names


def _make_server() -> FastMCP:
    mcp = FastMCP("t")

    @mcp.tool(name="ping")
    def _ping() -> str:
        return "pong"

    return mcp


def _make_served() -> FastMCP:
    mcp = FastMCP("served")

    @mcp.tool(name="echo")
    def _echo(text: str) -> str:  # want: MCP103
        return text

    return mcp


def test_inspected():
    mcp = _make_server()
    assert tool_names(mcp) == ["ping"]
    assert count_tools(mcp) == 1


def test_inspected_in_place():
    mcp = FastMCP("inline")

    @mcp.tool(name="alpha")
    def _alpha() -> str:
        return "a"

    assert tool_names(mcp) == ["alpha"]


@pytest.mark.asyncio
async def test_served_by_a_client():
    mcp = _make_served()
    async with Client(mcp) as client:
        assert await client.call_tool("echo", {"text": "hi"})


@pytest.mark.asyncio
async def test_run_by_a_helper():
    mcp = FastMCP("run")

    @mcp.tool(name="beta")
    def _beta() -> str:  # want: MCP103
        return "b"

    await serve(mcp)
