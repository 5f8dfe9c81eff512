import time


def register(mcp):
    @mcp.tool()
    def find(query: str) -> list[str]:  # want: MCP103
        time.sleep(0.1)
        return [query]
