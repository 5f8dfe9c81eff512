from mysrv.tools.server import app


def main() -> None:
    app.run()
