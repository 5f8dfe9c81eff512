import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("narrow")


def convert(source, target, fmt):
    return source


@mcp.tool()
async def short(path: str) -> str:
    data = await anyio.to_thread.run_sync(convert, path)  # want: MCP101
    return data


@mcp.tool()
async def split_once(source: str, target: str) -> str:
    return await anyio.to_thread.run_sync(convert, source, target)  # want: MCP101


@mcp.tool()
async def one_per_line(source_document_path: str, target: str) -> str:
    if source_document_path:
        x = await anyio.to_thread.run_sync(  # want: MCP101
            convert, source_document_path, target, "portable-document"
        )
        return x
    return target
