"""A library: no server of its own; its users' servers call what it exports."""
from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    @mcp.prompt(name="greet")
    def greet() -> str:  # want: MCP103
        return "hello"


__all__ = ["register"]
