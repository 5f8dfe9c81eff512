# /// script
# requires-python = ">=3.10"
# dependencies = [
#   "mcp>=1.24,<2",  # want: MCP001
# ]
# ///
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("script")
