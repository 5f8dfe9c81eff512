"""Tools that reach modules of namespace packages through attributes."""

from mcp.server.fastmcp import FastMCP

import app.other.index
from app import tools
from app.tools import search  # noqa: F401  (imports the submodule)

mcp = FastMCP("namespace-package")


@mcp.tool()
async def find(query: str) -> str:
    return await tools.search.find(query)


@mcp.tool()
async def lookup(key: str) -> str:
    return await app.other.index.lookup(key)
