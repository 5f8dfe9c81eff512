import time

from fastmcp import FastMCP

mcp = FastMCP("crlf")


@mcp.tool
def shout(text: str) -> str:  # want: MCP103
    """Upper-case.

    Keeps CRLF.
    """
    msg = """a
multiline string"""
    time.sleep(1)
    return text.upper() + msg
