from fastmcp import FastMCP

mcp = FastMCP("word")


@mcp.tool()
async def count(text: str) -> int:
    return len(text.split())


if __name__ == "__main__":
    mcp.run()
