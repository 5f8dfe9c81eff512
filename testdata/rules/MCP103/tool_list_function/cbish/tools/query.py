def run_query(query: str) -> list:  # want: MCP103
    return [query]
