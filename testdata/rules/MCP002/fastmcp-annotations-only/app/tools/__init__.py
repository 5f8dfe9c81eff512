from fastmcp import FastMCP

from app.tools.forecast import register as register_forecast


def register_all(mcp: FastMCP) -> None:
    register_forecast(mcp)
