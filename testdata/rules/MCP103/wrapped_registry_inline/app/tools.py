from app.registry import shared_tool, solo_tool


@shared_tool
def add(a: int, b: int) -> int:  # want: MCP103
    return a + b


@shared_tool
def read_note(path: str) -> str:  # want: MCP103
    with open(path) as f:
        return f.read()


@solo_tool
def ping() -> str:  # want: MCP103
    return "pong"
