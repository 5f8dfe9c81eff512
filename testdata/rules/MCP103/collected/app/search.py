from app.registry import logged_prompt, logged_tool


@logged_tool(name="search")
def search(query: str) -> list[str]:  # want: MCP103
    return [query]


@logged_tool()
async def search_async(query: str) -> list[str]:
    return [query]


@logged_prompt
def summarize(text: str) -> str:  # want: MCP103
    return text[:100]
