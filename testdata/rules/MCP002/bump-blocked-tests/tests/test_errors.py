from mcp.shared.exceptions import McpError


def test_error_code() -> None:
    assert McpError.__name__ == "McpError"
