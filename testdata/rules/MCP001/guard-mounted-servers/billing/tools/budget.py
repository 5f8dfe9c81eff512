from fastmcp import FastMCP

budget_server = FastMCP("budget")


@budget_server.tool()
async def budget_report(month: str) -> str:
    return month
