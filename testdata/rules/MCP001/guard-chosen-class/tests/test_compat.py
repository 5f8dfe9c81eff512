from app.compat import CompatMCP


def test_compat():
    server = CompatMCP("test")

    @server.tool()
    async def echo(text: str) -> str:
        return text

    assert server.name == "test"
