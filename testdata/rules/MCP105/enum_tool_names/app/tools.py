from mcp.server.fastmcp import Context, FastMCP

from .names import ToolName


class Toolbox:
    def __init__(self) -> None:
        self._tools: dict[str, dict] = {}
        for name in ToolName.enabled():
            self._tools[name.value] = {"description": name.name.title()}

    async def ask(self, question: str, ctx: Context) -> str:
        answer = await ctx.elicit(message=question, schema=dict)  # want: MCP105
        return str(answer)

    async def ping(self) -> str:
        return "pong"

    async def unregistered(self, ctx: Context) -> str:
        # no ToolName names it: not a tool
        return str(await ctx.elicit(message="never", schema=dict))

    def register(self, mcp: FastMCP) -> None:
        for method_name, config in self._tools.items():
            mcp.add_tool(getattr(self, method_name), description=config["description"])
