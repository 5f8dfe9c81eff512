"""The entry module imports the guard, then the server module, then runs it."""
import guard  # noqa: F401
from app.server import mcp

if __name__ == "__main__":
    mcp.run()
