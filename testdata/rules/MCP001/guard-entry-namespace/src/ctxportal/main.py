# src/ctxportal/ has no __init__.py (a namespace package, installed from
# src/): the module imports its package relatively, with a fallback for a
# run as a script. The entry point imports it as ctxportal.main, so the guard
# is imported through ctxportal: a bare name fails under the entry point, and
# without an __init__.py a relative import cannot be checked.
import os
import sys

from fastmcp import FastMCP

try:
    from .handlers.tools import lookup
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    from src.ctxportal.handlers.tools import lookup

mcp = FastMCP("ctxportal")


@mcp.tool()
async def get(key: str) -> str:
    return lookup(key)


def cli() -> None:
    mcp.run()
