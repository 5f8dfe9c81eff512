"""A library helper that reads the tools a server holds (never serves it)."""


def tool_names(mcp) -> list[str]:
    return [c.name for c in mcp.local_provider._components.values()]


def count_tools(mcp) -> int:
    return len(tool_names(mcp))


async def serve(mcp) -> None:
    await mcp.run_async()
