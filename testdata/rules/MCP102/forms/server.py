"""Shielded scopes with no checkpoint after them."""

from anyio import CancelScope, fail_after, move_on_after as moa
from mcp.server.fastmcp import FastMCP

from store import db

mcp = FastMCP("forms")


@mcp.tool()
async def inline(doc: str) -> str:
    with CancelScope(shield=True):  # want: MCP102
        await db.write(doc)
    return "saved"


@mcp.tool()
async def alias_with_timeout(doc: str) -> str:
    with moa(5, shield=True) as scope:  # want: MCP102
        await db.write(doc)
    if scope.cancelled_caught:
        return "timed out"
    return "saved"


@mcp.tool()
async def assigned_first(doc: str) -> str:
    scope = fail_after(10, shield=True)
    with scope:  # want: MCP102
        await db.write(doc)
    return "saved"


@mcp.tool()
async def shield_attribute(doc: str) -> str:
    with CancelScope() as scope:  # want: MCP102
        scope.shield = True
        await db.write(doc)
    return "saved"


@mcp.tool()
async def returns_inside(doc: str) -> str:
    with CancelScope(shield=True):  # want: MCP102
        return await db.write(doc)
