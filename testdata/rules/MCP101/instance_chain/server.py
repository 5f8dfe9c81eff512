"""Handlers reach managers through instances: an attribute __init__ assigns, a method's result."""

from mcp.server.fastmcp import FastMCP

from managers import Session, SessionRegistry

mcp = FastMCP("instance-chain")
registry = SessionRegistry()


@mcp.tool()
async def accounts(token: str) -> list[str]:
    # a method's annotated result, then an attribute its __init__ assigns
    session = registry.get_session(token)
    return await session.account_manager.list_accounts()


@mcp.tool()
async def invoices(token: str) -> list[str]:
    # a constructor, then an attribute its __init__ assigns
    return await Session(token).invoice_manager.list_invoices()


@mcp.tool()
async def report() -> str:
    # a method returning a constructor call, with no annotation
    return await registry.reports().render()


@mcp.tool()
async def count(token: str) -> int:
    # reached the same way; a checkpoint follows the offload
    return await registry.get_session(token).account_manager.count()
