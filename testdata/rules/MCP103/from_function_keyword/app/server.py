from typing import Optional

from fastmcp import FastMCP
from fastmcp.tools import Tool

from .tools import cluster_health, query_sql, table_columns


class Wrapper:
    def __init__(self, mcp: Optional[FastMCP] = None):
        self.mcp = mcp or FastMCP(name="wrapped")
        self.add_tools()

    def add_tools(self):
        self.mcp.add_tool(Tool.from_function(fn=query_sql, description=query_sql.__doc__))
        self.mcp.add_tool(Tool.from_function(name="columns", fn=table_columns))
        self.mcp.add_tool(Tool.from_function(fn=cluster_health))


mcp = Wrapper().mcp
