from fastmcp import FastMCP
from fastmcp.prompts import Prompt
from fastmcp.tools import FunctionTool

import app.search  # noqa: F401  (fills the registry)
from app.docs import TOOLS
from app.registry import PROMPTS, REGISTRY

mcp = FastMCP("collected")

for t in TOOLS:
    mcp.add_tool(FunctionTool.from_function(t))

for fn in REGISTRY:
    mcp.tool(name=fn.__name__)(fn)

for name, p in PROMPTS.items():
    mcp.add_prompt(Prompt.from_function(p, name=name))
