from fastmcp import FastMCP


def setup_used(mcp: FastMCP) -> None:
    @mcp.prompt(name="used")
    def used_prompt() -> str:  # want: MCP103
        return "used"


__all__ = ["setup_used"]
