import guard  # noqa: F401
from server import mcp


def main() -> None:
    mcp.run()


if __name__ == "__main__":
    main()
