from cbish.tools.kv import get_document
from cbish.tools.query import run_query

READ_ONLY_TOOLS = [get_document, run_query]


def get_tools() -> list:
    tools = list(READ_ONLY_TOOLS)
    return tools
