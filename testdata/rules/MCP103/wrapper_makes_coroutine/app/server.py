"""Plain handler functions turned into tools by wrapper factories, all
built inside the app factory."""

from fastmcp import FastMCP

from .factory import create_tool, run_db_tool, sync_tool

QUERIES = {"count": "SELECT count(*) FROM t", "names": "SELECT name FROM t"}


def create_app() -> FastMCP:
    mcp = FastMCP("factories")

    def make_tool(func):
        def executor(**kwargs):
            return run_db_tool(func, **kwargs)

        return create_tool(executor_func=executor, name=func.__name__)

    def make_query_handler(sql):
        def handler(limit: int = 10):  # what is served is create_tool's async _tool
            return [sql, limit]

        return handler

    def make_sync_handler(sql):
        def sync_handler(limit: int = 10):  # want: MCP103
            return [sql, limit]

        return sync_handler

    for name, sql in QUERIES.items():
        handler = make_query_handler(sql)
        wrapped = make_tool(handler)
        mcp.tool(name=name)(wrapped)

    mcp.tool(name="raw")(sync_tool(make_sync_handler("SELECT 1")))
    return mcp


app = create_app()
