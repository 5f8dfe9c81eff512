# The server class subclasses a subscripted generic FastMCP, twice removed:
# its tools are fastmcp tools.
from dataclasses import dataclass
from typing import Generic, TypeVar

from fastmcp import FastMCP

T = TypeVar("T")


@dataclass
class AppContext:
    region: str


class ErrorPreservingMCP(FastMCP[T], Generic[T]):
    """Registers tools with detailed errors."""


class AppMCP(ErrorPreservingMCP[AppContext]):
    """The application's server."""


mcp = AppMCP("app")


@mcp.tool
def region() -> str:  # want: MCP103
    return "eu"


@mcp.tool
async def ping() -> str:
    return "pong"


class Table(dict[str, int]):
    """A dict subclass: a subscripted base that is no server."""

    def tool(self, fn):
        return fn


table = Table()


@table.tool
def not_a_tool() -> str:
    return "no"
