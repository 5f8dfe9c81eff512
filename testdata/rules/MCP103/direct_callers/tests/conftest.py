"""A fake server for the tests: its handlers are test code, not fixed."""

from fastmcp import FastMCP

fake = FastMCP("fake")


@fake.tool
def probe() -> str:  # want: MCP103
    return open("probe.txt").read()
