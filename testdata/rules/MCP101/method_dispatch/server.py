"""A handler awaits a method of a base class; the subclasses override it and offload there."""

from mcp.server.fastmcp import FastMCP

from processors import Processor, get_processor

mcp = FastMCP("dispatch")


@mcp.tool()
async def convert(kind: str, data: str) -> str:
    processor: Processor = get_processor(kind)
    return await processor.run(data)
