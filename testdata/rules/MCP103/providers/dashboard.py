"""A FastMCPApp and a LocalProvider whose components the main server serves."""

from fastmcp import FastMCPApp
from fastmcp.server.providers import LocalProvider

app = FastMCPApp("Dashboard")
extras = LocalProvider()


@app.ui()
def show_dashboard() -> dict:  # want: MCP103
    return {"type": "column"}


@app.tool()
def save_contact(name: str, email: str) -> str:  # want: MCP103
    return name


@app.tool()
async def load_contact(name: str) -> str:
    return name


@extras.tool
def ping() -> str:  # want: MCP103
    return "pong"
