"""--fix --unsafe-fixes moves the manifest to fastmcp 4 and withholds the
guard (the re-lock brings mcp 2); run again, it must not find the lock
stale and write the guard after all."""
from fastmcp import FastMCP

mcp = FastMCP("sums")


@mcp.tool
async def add(a: int, b: int) -> int:
    return a + b


if __name__ == "__main__":
    mcp.run()
