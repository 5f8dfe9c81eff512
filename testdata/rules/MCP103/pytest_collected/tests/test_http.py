"""pytest runs the functions named test* of a test_*.py module and the
test* methods of its Test* classes, decorated or not: the servers they
build and serve (over HTTP to a TestClient) register their tools. A helper
a test calls runs too; one nothing calls does not, nor do a Test* class's
other methods or a server the test only checks is there."""

from fastmcp import FastMCP
from starlette.testclient import TestClient


def _client():
    mcp: FastMCP = FastMCP(name="helper")

    @mcp.tool
    def ping() -> str:  # want: MCP103
        return "pong"

    return TestClient(mcp.http_app())


def test_initialize():
    with _client() as client:
        assert client.post("/mcp/").status_code < 500


def test_served_in_the_test():
    mcp = FastMCP(name="inline")

    @mcp.tool
    def echo(text: str) -> str:  # want: MCP103
        return text

    with TestClient(mcp.http_app()) as client:
        client.post("/mcp/")


class TestServer:
    def test_method(self):
        mcp = FastMCP(name="method")

        @mcp.tool()
        def add(a: int, b: int) -> int:  # want: MCP103
            return a + b

        return TestClient(mcp.http_app())

    def build(self):
        mcp = FastMCP(name="not collected")

        @mcp.tool()
        def sub(a: int, b: int) -> int:
            return a - b

        return TestClient(mcp.http_app())


def check_unused():
    mcp = FastMCP(name="not collected")

    @mcp.tool
    def unused() -> str:
        return "never"

    return TestClient(mcp.http_app())


def test_only_checked():
    mcp = FastMCP(name="checked")

    @mcp.tool()
    def looked_at() -> str:
        return "registered, never served"

    assert mcp is not None
    assert not (mcp is None)
