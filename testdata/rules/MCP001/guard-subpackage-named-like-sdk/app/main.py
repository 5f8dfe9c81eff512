# A package module beside an app/mcp/ subpackage: "from mcp.server.fastmcp"
# is the SDK (app/mcp/ has no server/fastmcp.py), not a sibling imported by
# a top-level name, and "from app.mcp.tools" names the package: the guard is
# imported as app.mcp_respond_guard.
from mcp.server.fastmcp import FastMCP

from app.mcp.tools import register

server = FastMCP("demo")
register(server)


def main():
    server.run()
