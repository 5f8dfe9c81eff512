import os

from aiohttp import web
from anyio import to_thread
import httpx
from mcp.server.fastmcp import FastMCP

from weather_api import client

mcp = FastMCP("weather")


@mcp.tool()
async def forecast(city: str) -> str:
    data = await to_thread.run_sync(client.fetch, city)  # want: MCP101
    return data + os.sep + str(web) + str(httpx)
