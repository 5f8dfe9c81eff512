# The tools modules each build a server that this one mounts: one process,
# started here, serves them all, so the guard is imported here once, not in
# every tools module.
from fastmcp import FastMCP

from billing.tools.budget import budget_server
from billing.tools.cost import cost_server

mcp = FastMCP("billing")
mcp.mount(budget_server)
mcp.mount(cost_server)


def main() -> None:
    mcp.run()
