# Installed with package-dir "" = "src": main is a top-level module and
# imports its siblings by their own names, so the guard beside it is
# imported as mcp_respond_guard (the stray __init__.py files above it would
# name it src.mcp_respond_guard, which does not import).
from mcp.server.fastmcp import FastMCP

from services.tools import ping

mcp = FastMCP("src-root")
mcp.add_tool(ping)


def main() -> None:
    mcp.run()
