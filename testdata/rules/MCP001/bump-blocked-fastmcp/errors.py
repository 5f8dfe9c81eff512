from mcp.shared.exceptions import McpError
from mcp.types import ErrorData


def fail(msg: str) -> None:
    raise McpError(ErrorData(code=-32602, message=msg))
