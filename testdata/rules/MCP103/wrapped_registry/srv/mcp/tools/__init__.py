from . import notes, search

__all__ = ["notes", "search"]
