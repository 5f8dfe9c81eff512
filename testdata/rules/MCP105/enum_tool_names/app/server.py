from mcp.server.fastmcp import FastMCP

from .tools import Toolbox

mcp = FastMCP("enum-tools")
Toolbox().register(mcp)

if __name__ == "__main__":
    mcp.run()
