# Tools come from a list a function builds, through another that returns it
# in a tuple, filtered and partly wrapped by comprehensions, and are added as
# FunctionTool objects: each sync tool runs in a worker thread on fastmcp 3.
from fastmcp import FastMCP
from fastmcp.tools import FunctionTool

from cbish.registration import prepare_tools


def main() -> None:
    mcp = FastMCP("cbish")
    final_tools, confirmed = prepare_tools(confirm=set())
    for tool in final_tools:
        tool_obj = FunctionTool.from_function(tool)
        mcp.add_tool(tool_obj)
    mcp.run()


if __name__ == "__main__":
    main()
