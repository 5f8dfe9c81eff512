from fastmcp import FastMCP

cost_server = FastMCP("cost")


@cost_server.tool()
async def cost_report(month: str) -> str:
    return month
