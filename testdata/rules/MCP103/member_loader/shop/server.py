from fastmcp import FastMCP

from shop.prompts import register_all_prompts

mcp = FastMCP("shop")
register_all_prompts(mcp)

if __name__ == "__main__":
    mcp.run()
