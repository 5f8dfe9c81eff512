from fastmcp import FastMCP

import app.tools  # noqa: F401  (fills the registries)
from app.registry import register

mcp = FastMCP("wrapped-inline")
register(mcp)
