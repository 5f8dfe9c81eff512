# A package module: it imports its siblings relatively, and "import logging"
# is the standard library's, not relpkg/logging/: the guard is imported
# relatively too (from . import).
import logging

from mcp.server.fastmcp import FastMCP

from .logging import setup
from .tools import ping

log = logging.getLogger(__name__)
mcp = FastMCP("relpkg")
mcp.add_tool(ping)


def main() -> None:
    setup()
    mcp.run()


if __name__ == "__main__":
    main()
