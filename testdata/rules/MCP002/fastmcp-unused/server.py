# The server runs on the official SDK's FastMCP; fastmcp is declared (or
# pulled in) but never imported, so no handler runs under it.
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
def forecast(city: str) -> str:
    return f"sunny in {city}"
