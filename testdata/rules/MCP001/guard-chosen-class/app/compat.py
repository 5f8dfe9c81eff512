from mcp.server.fastmcp import FastMCP


class CompatMCP(FastMCP):
    """Simplifies tool schemas for clients that need it."""
