import anyio
from fastmcp import FastMCP

mcp = FastMCP("fastmcp33")


@mcp.tool
def bare(path: str) -> str:  # want: MCP103
    """Read a file."""
    with open(path) as f:
        return f.read()


@mcp.tool()
def empty_parens(a: int, b: int = 1) -> int:  # want: MCP103
    return a + b


@mcp.tool(name="t", timeout=5)
def timed() -> str:  # want: MCP103
    return "x"


@mcp.tool(run_in_thread=True)
def explicit_thread() -> str:  # want: MCP103
    return "y"
