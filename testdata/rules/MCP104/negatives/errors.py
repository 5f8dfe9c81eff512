class CancelledError(Exception):
    """The project's own error, not asyncio's."""
