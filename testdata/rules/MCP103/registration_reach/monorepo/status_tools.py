"""Registers on the shared server at import time; cli.py imports it."""

from monorepo.server import mcp


@mcp.tool()
def status() -> str:  # want: MCP103
    return "ok"
