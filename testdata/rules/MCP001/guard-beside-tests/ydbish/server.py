# The server is a FastMCP subclass that registers its tools in __init__; it is
# constructed in __main__.py to serve, and in the tests. The guard belongs
# beside the module that serves, never in tests/.
from mcp.server.fastmcp import FastMCP


async def ping() -> str:
    return "pong"


class PingServer(FastMCP):
    def __init__(self, **kwargs) -> None:
        super().__init__("ping", **kwargs)
        self.add_tool(ping, name="ping")
