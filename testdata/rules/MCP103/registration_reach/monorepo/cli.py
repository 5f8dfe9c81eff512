import monorepo.status_tools  # noqa: F401  (registers the status tool)
from monorepo.server import start


def serve() -> None:
    """The [project.scripts] entry point."""
    start()
