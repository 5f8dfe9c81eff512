from mcp.server.fastmcp import FastMCP

from .tools import tools

mcp = FastMCP("registry")


def register_tools(server: FastMCP) -> None:
    for tool in [t for t in tools if not t.internal]:
        func = tool.func
        server.tool(name=tool.name or func.__name__)(func)


register_tools(mcp)

if __name__ == "__main__":
    mcp.run()
