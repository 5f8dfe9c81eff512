# A library that registers its tools on its users' servers: a server project.
from fastmcp import FastMCP


def install(mcp: FastMCP) -> None:
    """Called by the application that owns the server."""
