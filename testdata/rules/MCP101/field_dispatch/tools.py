"""Per-tool functions, reached through the fields of spec objects."""

import anyio


async def fetch(arguments: dict) -> str:
    return await anyio.to_thread.run_sync(str, arguments)  # want: MCP101


async def safe_fetch(arguments: dict) -> str:
    return await anyio.to_thread.run_sync(str, arguments, abandon_on_cancel=True)


async def parse(arguments: dict) -> str:
    return await anyio.to_thread.run_sync(repr, arguments)  # want: MCP101


async def export(arguments: dict) -> str:
    return await anyio.to_thread.run_sync(str.upper, str(arguments))  # want: MCP101


async def never_dispatched(arguments: dict) -> str:
    # the handler of a spec no handler looks up
    return await anyio.to_thread.run_sync(str, arguments)
