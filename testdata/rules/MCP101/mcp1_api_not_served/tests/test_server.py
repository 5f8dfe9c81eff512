# A test that builds a 1.x server of its own: tests do not decide which mcp
# the server runs.
from mcp.server.fastmcp import FastMCP


def test_server_builds() -> None:
    assert FastMCP("t").name == "t"
