from ._registry import traced_tool


@traced_tool()
def add_note(text: str) -> dict:  # want: MCP103
    return {"ok": True, "text": text}


@traced_tool()
def list_notes() -> dict:  # want: MCP103
    return {"notes": []}


def _helper(text: str) -> str:
    """Not decorated: not a tool."""
    return text.strip()
