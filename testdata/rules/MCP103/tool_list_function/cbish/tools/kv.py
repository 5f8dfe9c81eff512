def get_document(key: str) -> dict:  # want: MCP103
    return {"key": key}


def unused_tool(key: str) -> dict:
    # In no tool list: not registered.
    return {}
