from app import guard  # noqa: F401  (runs before any module of the package)
