"""Not a test module pytest collects (not test_*.py): its test* function
runs only if something calls it, and nothing does."""

from fastmcp import FastMCP
from starlette.testclient import TestClient


def test_like_helper():
    mcp = FastMCP(name="helper module")

    @mcp.tool
    def idle() -> str:
        return "idle"

    return TestClient(mcp.http_app())
