"""Entry point: python -m ydbish."""

from ydbish.server import PingServer


def main() -> None:
    server = PingServer()
    server.run()


if __name__ == "__main__":
    main()
