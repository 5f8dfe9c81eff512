"""The server: tools registered on the official SDK's FastMCP."""

import anyio
from anyio import to_thread
from mcp.server.fastmcp import Context, FastMCP

from .forecast import load_forecast, render_chart
from .stations import nearest_station

mcp = FastMCP("weather")


@mcp.tool()
async def forecast(city: str) -> str:
    """Forecast for a city, computed from the local model (slow, CPU-bound)."""
    return await to_thread.run_sync(load_forecast, city)


@mcp.tool()
async def chart(city: str, ctx: Context) -> bytes:
    """A chart of the week, reported with progress."""
    data = await anyio.to_thread.run_sync(load_forecast, city)
    await ctx.report_progress(50, 100)  # sends a message: a real checkpoint
    return await anyio.to_thread.run_sync(render_chart, data, abandon_on_cancel=True)


@mcp.tool()
async def station(lat: float, lon: float) -> str:
    """The nearest weather station."""
    return await nearest_station(lat, lon)
