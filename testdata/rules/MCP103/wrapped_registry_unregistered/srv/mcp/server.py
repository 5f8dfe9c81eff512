"""The registration function exists but nothing calls it: no tool is served."""

from fastmcp import FastMCP

mcp = FastMCP("wrapped-registry")


def _register_tools() -> None:
    from .tools import notes, search  # noqa: F401  (importing fills the registry)
    from .tools._registry import register_all

    register_all(mcp)


# _register_tools()  (disabled)
