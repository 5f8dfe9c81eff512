"""fastmcp 3.x server with sync handlers in every registration form."""

import time

from fastmcp import FastMCP
from fastmcp.prompts import prompt
from fastmcp.tools import tool

import tools

mcp = FastMCP("forms")


@mcp.tool
def bare(seconds: float = 1.0) -> str:  # want: MCP103
    """Sleep a while."""
    time.sleep(seconds)
    return "slept"


@mcp.tool(name="called", timeout=30)
def with_timeout(n: int, *, scale: int = 2) -> int:  # want: MCP103
    """Scale n."""
    total = n
    total *= scale
    return total


@mcp.resource("data://items/{item_id}")
def template(item_id: str) -> str:
    """fastmcp 3 reads a template with no injected parameter inline."""
    return item_id.upper()


@mcp.prompt()
def greet(name: str) -> str:  # want: MCP103
    return f"Hello {name}"


@tool
def standalone(text: str) -> str:  # want: MCP103
    return text[::-1]


@prompt
def standalone_prompt() -> str:  # want: MCP103
    return "hi"


@mcp.tool(run_in_thread=False)
def inline() -> str:
    return "runs on the loop"


@mcp.tool
async def asynchronous() -> str:
    return "async"


async def _compute(n: int) -> int:
    return n * 2


@mcp.tool
def returns_coroutine(n: int):
    """Only builds the coroutine; fastmcp awaits it."""
    return _compute(n)


mcp.tool(tools.heavy, name="heavy")
mcp.tool(name="light")(tools.light)
mcp.add_tool(tools.added)
