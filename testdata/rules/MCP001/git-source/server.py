# A library that registers its tools on its users' low-level servers: a
# server project that uses no API mcp 2 removed, so the bump can apply.
from mcp.server.lowlevel import Server


def install(server: Server) -> None:
    """Called by the application that owns the server."""
