def register_admin(mcp):
    @mcp.tool()
    def wipe() -> str:
        """Never registered: its only caller is never called."""
        return "wiped"
