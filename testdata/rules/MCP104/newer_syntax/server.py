"""Python 3.14's except without parentheses (PEP 758): the clause catches
every type it names."""
import asyncio

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("newer_syntax")


async def fetch(url: str) -> str:
    await asyncio.sleep(1)
    return url


@mcp.tool()
async def unparenthesized(url: str) -> str:
    try:
        return await fetch(url)
    except ValueError, asyncio.CancelledError:  # want: MCP104
        return "cancelled"


@mcp.tool()
async def unparenthesized_other(url: str) -> str:
    try:
        return await fetch(url)
    except ValueError, KeyError:
        return "failed"
