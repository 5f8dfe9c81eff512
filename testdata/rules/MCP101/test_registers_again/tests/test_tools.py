from mcp.server.fastmcp import FastMCP

from weather.tools import only_tested, slow


async def test_listed():
    server = FastMCP("t")
    server.add_tool(slow)
    server.add_tool(only_tested)
    tools = await server.list_tools()
    assert len(tools) == 2
