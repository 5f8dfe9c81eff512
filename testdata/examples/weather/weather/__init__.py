"""Weather MCP server."""
