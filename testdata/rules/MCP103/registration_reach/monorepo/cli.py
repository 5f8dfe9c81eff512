from monorepo.server import start


def serve() -> None:
    """The [project.scripts] entry point."""
    start()
