from ._registry import traced_tool


@traced_tool()
def add_note(text: str) -> dict:  # not served: register_all never runs
    return {"ok": True, "text": text}


@traced_tool()
def list_notes() -> dict:  # not served: register_all never runs
    return {"notes": []}


def _helper(text: str) -> str:
    """Not decorated: not a tool."""
    return text.strip()
