from mcp.server.fastmcp import FastMCP


class BaseServer(FastMCP):
    """The servers of the workspace share this class."""
