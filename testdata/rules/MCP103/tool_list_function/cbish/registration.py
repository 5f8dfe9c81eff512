from cbish.confirm import wrap_with_confirmation
from cbish.tools import get_tools


def prepare_tools(confirm: set[str]) -> tuple[list, set[str]]:
    tools = get_tools()
    enabled = [tool for tool in tools if tool.__name__ != "disabled"]
    final = [wrap_with_confirmation(tool) if tool.__name__ in confirm else tool for tool in enabled]
    return final, confirm
