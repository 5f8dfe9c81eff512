"""A base class whose __init__ calls a registration hook that subclasses
override (magg's ManagedServer._register_tools): building the subclass runs
the override, so the tools it registers are served. A class of the same
shape that is no subclass of the base, and that nothing builds, registers
nothing."""

from functools import wraps

from fastmcp import Context, FastMCP


class ManagedServer:
    def __init__(self, mcp: FastMCP):
        self._mcp = mcp
        self._register_tools()

    @property
    def mcp(self) -> FastMCP:
        return self._mcp

    def _register_tools(self):
        pass


class AppServer(ManagedServer):
    def __init__(self):
        super().__init__(FastMCP("app"))

    def _register_tools(self):
        tools = [
            (self.summarize, "summarize"),
            (self.roots, "roots"),
        ]

        def wrapped(func):
            @wraps(func)
            async def wrapper(*args, **kwargs):
                return await func(*args, **kwargs)

            return wrapper

        for method, name in tools:
            self.mcp.tool(name=name)(wrapped(method))

    async def summarize(self, topic: str, ctx: Context) -> str:
        reply = await ctx.sample(f"Summarize {topic}")  # want: MCP105
        return reply.text

    async def roots(self, ctx: Context) -> list:
        return await ctx.list_roots()  # want: MCP105


class Unrelated:
    def __init__(self, mcp: FastMCP):
        self.mcp = mcp

    def _register_tools(self):
        self.mcp.tool(name="unused")(self.unused)

    async def unused(self, ctx: Context) -> str:
        reply = await ctx.sample("never served")
        return reply.text


def main():
    AppServer().mcp.run()


if __name__ == "__main__":
    main()
