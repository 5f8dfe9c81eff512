"""Start the weather server: stdio is guarded, SSE is not."""
import sys

from server import mcp


def main() -> None:
    if "--sse" in sys.argv:
        mcp.run("sse")
    else:
        import guard  # noqa: F401

        mcp.run()


if __name__ == "__main__":
    main()
