import anyio

from .registry import traced_tool


def _crunch(n: int) -> int:
    return n * 2


@traced_tool()
async def crunch(n: int) -> int:
    return await anyio.to_thread.run_sync(_crunch, n)  # want: MCP101


async def not_a_tool(n: int) -> int:
    """Not decorated: not registered."""
    return await anyio.to_thread.run_sync(_crunch, n)
