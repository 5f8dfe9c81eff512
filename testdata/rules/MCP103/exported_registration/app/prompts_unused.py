"""Exported, but the application's server never calls it: it registers
nothing (the application builds its own server)."""
from fastmcp import FastMCP


def setup_unused(mcp: FastMCP) -> None:
    @mcp.prompt(name="unused")
    def unused_prompt() -> str:
        return "unused"


__all__ = ["setup_unused"]
