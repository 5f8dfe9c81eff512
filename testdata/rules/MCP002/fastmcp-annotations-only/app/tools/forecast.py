from fastmcp import FastMCP


def register(mcp: FastMCP) -> None:
    @mcp.tool()
    def forecast(city: str) -> str:
        return f"sunny in {city}"
