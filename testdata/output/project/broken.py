from mcp.server.fastmcp import FastMCP
def tool(:
    pass
