"""fastmcp 3 does not serve a tool registered with enabled=False unless something enables it."""

import time

from fastmcp import FastMCP

mcp = FastMCP("disabled")


@mcp.tool(enabled=False)
def retired(seconds: float) -> str:
    """Never served: nothing enables it."""
    time.sleep(seconds)
    return "slept"


@mcp.tool(enabled=False, tags={"admin"})
def admin_only(seconds: float) -> str:  # want: MCP103
    """Enabled below by tag."""
    time.sleep(seconds)
    return "slept"


@mcp.tool(enabled=False, name="beta_search")
def beta(query: str) -> str:  # want: MCP103
    """Enabled below by name."""
    return query


@mcp.tool(enabled=True)
def served(query: str) -> str:  # want: MCP103
    return query


def enable_admin() -> None:
    mcp.enable(tags={"admin"})


mcp.enable(names={"beta_search"})


if __name__ == "__main__":
    enable_admin()
    mcp.run()
