# No formatter is configured: flake8's max-line-length is the limit the
# fixed line must keep (79 here, not black's default 88).
import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("narrow")


def convert(source, target):
    return source


@mcp.tool()
async def split(
    source_document_path: str, target_document_path: str
) -> str:
    result = await anyio.to_thread.run_sync(  # want: MCP101
        convert, source_document_path, target_document_path
    )
    return result
