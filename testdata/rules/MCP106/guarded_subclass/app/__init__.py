from app import compat  # noqa: F401
