def register(mcp):
    @mcp.tool()
    def extra_tool(x: int) -> int:  # want: MCP103
        """Registered by the loop over plugin modules in server.py."""
        return x
