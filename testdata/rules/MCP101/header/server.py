#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""A server with every header line CPython and isort keep first."""
from __future__ import annotations

from anyio import to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("header")


@mcp.tool()
async def work(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))  # want: MCP101
