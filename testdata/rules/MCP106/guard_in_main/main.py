"""Start the weather server over stdio, guarded against answering twice."""
import anyio

from server import mcp


async def main() -> None:
    import guard  # noqa: F401  (installs the respond/cancel guard)

    await mcp.run_stdio_async()


if __name__ == "__main__":
    anyio.run(main)
