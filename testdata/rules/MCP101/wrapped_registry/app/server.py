from mcp.server.fastmcp import FastMCP

mcp = FastMCP("wrapped-registry")


def _register() -> None:
    from . import tools  # noqa: F401  (importing fills the registry)
    from .registry import register_all

    register_all(mcp)


_register()
