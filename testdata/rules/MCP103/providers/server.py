from fastmcp import FastMCP

from dashboard import app, extras
from weather import weather

mcp = FastMCP("platform")
mcp.add_provider(app)
mcp.add_provider(extras)
mcp.mount(weather, prefix="weather")

if __name__ == "__main__":
    mcp.run()
