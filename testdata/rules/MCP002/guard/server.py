#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Sums, slowly."""
from fastmcp import FastMCP

mcp = FastMCP("sums")


@mcp.tool
def slow_sum(a: int, b: int) -> int:
    return a + b


if __name__ == "__main__":
    mcp.run()
