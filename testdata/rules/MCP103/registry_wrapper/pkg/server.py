from fastmcp import FastMCP

from . import tools_a

MODULES = [tools_a]


def main() -> None:
    mcp = FastMCP("x3")
    tools_a.register_all(mcp)
    mcp.run()
