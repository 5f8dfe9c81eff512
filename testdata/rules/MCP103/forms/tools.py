import hashlib


def heavy(data: str) -> str:  # want: MCP103
    """Hash data many times."""
    out = data
    for _ in range(100_000):
        out = hashlib.sha256(out.encode()).hexdigest()
    return out


def light() -> None:  # want: MCP103
    return None


def added(x: int) -> int:  # want: MCP103
    return x + 1
