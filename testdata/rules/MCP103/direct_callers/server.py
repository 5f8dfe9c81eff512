"""Sync tools that the project's own tests call directly."""

import sqlite3

from fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool
def list_tags() -> list[str]:  # want: MCP103
    """Every tag, sorted."""
    return sorted(["todo", "done", "later"])


@mcp.tool(description="Find notes.")
def search_notes(query: str, *, limit: int = 10) -> list[str]:  # want: MCP103
    """Search the notes database."""
    db = sqlite3.connect("notes.db")
    rows = db.execute("select body from notes where body like ?", (query,))
    return [r[0] for r in rows][:limit]


@mcp.tool
def count_notes(folder_name_with_a_long_name: str, include_archived: bool) -> int:  # want: MCP103
    db = sqlite3.connect("notes.db")
    return db.execute("select count(*) from notes").fetchone()[0]


@mcp.resource("notes://{note_id}")
def note(note_id: str) -> str:
    """A template with no injected parameter runs inline: not reported."""
    return note_id.strip().upper()


@mcp.resource("notes://readme")
def readme() -> str:  # want: MCP103
    return "Notes server.".strip().upper()
