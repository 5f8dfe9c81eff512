"""Valid Python that tree-sitter-python refuses (recovered by pyast): the
offload is still seen, and its fix applies, in a file that holds them."""
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("newer_syntax")


def work(x=None):
    return x


def skip():
    return None


@mcp.tool()
async def starred_tuple(items: list) -> tuple:
    head = 1, *[await anyio.to_thread.run_sync(work, i) for i in items]  # want: MCP101
    return head


@mcp.tool()
async def dedent_in_brackets() -> str:
    if True:
        value = (anyio.to_thread.
    run_sync)
        return await value(work)  # want: MCP101


async def history(x):
    yield None, x, *[skip() for _ in x]
