"""Weather tools: a module with a docstring and a __future__ import, sorted
as isort's black profile sorts it. The guard's import goes after both, and an
"isort: split" after it keeps isort from moving it below the imports."""

from __future__ import annotations

import logging

import httpx
from mcp.server.fastmcp import FastMCP

from weather.forecast import fetch

log = logging.getLogger(__name__)
mcp = FastMCP("weather")


@mcp.tool()
async def forecast(city: str) -> str:
    async with httpx.AsyncClient() as client:
        await client.get("https://example.com")
    return fetch(city)


def main() -> None:
    mcp.run()
