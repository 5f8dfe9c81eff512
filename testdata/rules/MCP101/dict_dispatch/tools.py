"""Per-tool functions, looked up by name in dicts."""

import anyio


async def fetch(url: str) -> str:
    return await anyio.to_thread.run_sync(str, url)  # want: MCP101


async def parse(text: str) -> str:
    return await anyio.to_thread.run_sync(str.strip, text)  # want: MCP101


async def unknown(**kwargs) -> str:
    return await anyio.to_thread.run_sync(repr, kwargs)  # want: MCP101


async def cancellable(url: str) -> str:
    return await anyio.to_thread.run_sync(str, url, abandon_on_cancel=True)


async def never_dispatched(url: str) -> str:
    # in a dict that no handler looks anything up in
    return await anyio.to_thread.run_sync(str, url)


class Exporter:
    async def export(self, data: str) -> str:
        return await anyio.to_thread.run_sync(str.upper, data)  # want: MCP101


TOOLS = {"fetch": fetch, "safe_fetch": cancellable}
UNUSED = {"never": never_dispatched}
