from .registry import collector

tool, register_all = collector()


@tool(label="alpha")
def alpha(x: int) -> int:  # want: MCP103
    return x + 1


@tool(label="beta")
async def beta(x: int) -> int:
    return x
