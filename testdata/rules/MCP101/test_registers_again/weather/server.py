from mcp.server.fastmcp import FastMCP

from weather.tools import slow

mcp = FastMCP("weather")
mcp.tool()(slow)


def main():
    mcp.run()
