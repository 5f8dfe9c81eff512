from mcp.server.lowlevel import Server


def make_server(name: str) -> Server:
    """The application adds its handlers to the server built here."""
    return Server(name)
