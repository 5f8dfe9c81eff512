def register(mcp):
    @mcp.tool()
    def monthly(month: str) -> str:  # want: MCP103
        """Registered through start(), which the console script runs."""
        return month
