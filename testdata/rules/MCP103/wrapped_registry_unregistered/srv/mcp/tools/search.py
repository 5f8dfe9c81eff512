from ._registry import traced_tool


@traced_tool()
async def search(query: str) -> dict:
    return {"query": query}
