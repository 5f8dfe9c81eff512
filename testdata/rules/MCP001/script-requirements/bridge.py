# /// script
# requires-python = ">=3.10"
# dependencies = [
#     "mcp>=1.27.0,<2",  # want: MCP001
# ]
# ///
# The server is run with `uv run bridge.py` (the metadata above) or, after
# `pip install -r requirements.txt`, with `python bridge.py`: both files
# install this server.
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("bridge")


@mcp.tool()
def ping() -> str:
    return "pong"


if __name__ == "__main__":
    mcp.run()
