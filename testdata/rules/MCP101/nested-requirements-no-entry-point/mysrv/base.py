from mcp.server.fastmcp import FastMCP


class Server(FastMCP):
    """The project's server class."""
