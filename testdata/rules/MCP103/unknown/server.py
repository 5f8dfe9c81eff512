from fastmcp import FastMCP

mcp = FastMCP("no dependency file")


@mcp.tool
def maybe(n: int) -> int:  # want: MCP103
    return n
