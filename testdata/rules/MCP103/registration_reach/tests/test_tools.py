from fastmcp import FastMCP

from monorepo import billing

# A test registering the billing tools does not register them on the real server.
billing.register(FastMCP("test"))


def register_fixture_tools(mcp):
    @mcp.tool()
    def echo(text: str) -> str:  # want: MCP103
        """A test server's own tool: registered when the tests run."""
        return text


register_fixture_tools(FastMCP("fixture"))
