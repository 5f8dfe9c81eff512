# The server's class is chosen at run time (a conditional expression): the
# guard belongs beside this module, not beside the test of the subclass.
import os

from mcp.server.fastmcp import FastMCP

from app.compat import CompatMCP


async def ping() -> str:
    return "pong"


def main() -> None:
    server_class = CompatMCP if os.environ.get("COMPAT") else FastMCP
    server = server_class("app")
    server.add_tool(ping)
    server.run()


if __name__ == "__main__":
    main()
