from mcp.server.fastmcp import FastMCP


def test_tool():
    server = FastMCP("test")

    @server.tool()
    async def echo(text: str) -> str:
        return text

    assert server.name == "test"
