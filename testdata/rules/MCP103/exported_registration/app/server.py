from fastmcp import FastMCP

from prompts_used import setup_used

mcp = FastMCP("app")
setup_used(mcp)

if __name__ == "__main__":
    mcp.run()
