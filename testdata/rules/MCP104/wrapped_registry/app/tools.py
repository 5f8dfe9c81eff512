import anyio

from .registry import traced_tool


@traced_tool()
async def fetch(url: str) -> str:
    try:
        await anyio.sleep(1)
    except BaseException:  # want: MCP104
        return "failed"
    return url


async def not_a_tool(url: str) -> str:
    """Not decorated: not registered."""
    try:
        await anyio.sleep(1)
    except BaseException:
        return "failed"
    return url
