# The server is the official SDK's FastMCP; fastmcp is imported only to
# annotate the registration functions' parameter and for its logging
# helpers: every handler is registered on the official server.
from fastmcp.utilities.logging import get_logger
from mcp.server.fastmcp import FastMCP

from app.tools import register_all

log = get_logger(__name__)
mcp = FastMCP("weather")
register_all(mcp)

if __name__ == "__main__":
    mcp.run()
