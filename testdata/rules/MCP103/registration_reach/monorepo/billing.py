import time


def register(mcp):
    @mcp.tool()
    def charge(amount: int) -> str:
        """Never registered: the call is commented out."""
        time.sleep(0.1)
        return "ok"
