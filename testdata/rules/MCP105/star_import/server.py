from tools import *


def main() -> None:
    mcp.run()


if __name__ == "__main__":
    main()
