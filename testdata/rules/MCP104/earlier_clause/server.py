"""An except clause after one that catches the cancellation never sees it."""

import asyncio

import anyio
import httpx
import trio
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("earlier-clause")
client = httpx.AsyncClient()

# ---- must not flag: an earlier clause of the same try takes the cancellation


@mcp.tool()
async def reraised_first(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except asyncio.CancelledError:
        raise
    except BaseException as exc:
        raise ToolError(f"fetch failed: {exc}") from exc


@mcp.tool()
async def anyio_class_first(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except anyio.get_cancelled_exc_class():
        raise
    except:  # noqa: E722
        return "failed"


@mcp.tool()
async def in_a_tuple_first(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise
    except BaseException:
        return "failed"


@mcp.tool()
async def swallowed_first(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except asyncio.CancelledError:  # want: MCP104
        return "cancelled"
    except BaseException:
        return "failed"


# ---- must flag: the earlier clause does not take the cancellation


@mcp.tool()
async def value_error_first(url: str) -> str:
    try:
        resp = await client.get(url)
        return resp.text
    except ValueError:
        raise
    except BaseException:  # want: MCP104
        return "failed"


@mcp.tool()
async def trio_class_first(url: str) -> str:
    # the server runs on asyncio: trio.Cancelled is never raised there
    try:
        resp = await client.get(url)
        return resp.text
    except trio.Cancelled:
        raise
    except BaseException:  # want: MCP104
        return "failed"


@mcp.tool()
async def reraised_in_an_inner_try(url: str) -> str:
    # the inner clause re-raises into the outer try's clauses
    try:
        try:
            resp = await client.get(url)
        except asyncio.CancelledError:
            raise
        return resp.text
    except BaseException:  # want: MCP104
        return "failed"
