import anyio
from mcp.server.fastmcp import FastMCP

from persist import save, save_then_log

mcp = FastMCP("helpers")


@mcp.tool()
async def uses_helper(doc: str) -> str:
    await save(doc)
    return "saved"


@mcp.tool()
async def checkpoints_after_helper(doc: str) -> str:
    await save_then_log(doc)
    await anyio.sleep(0)
    return "saved"
