"""fastmcp 3 resource templates: inline unless they take an injected parameter."""

from typing import Optional

import fastmcp
from fastmcp import Context, FastMCP
from fastmcp.dependencies import Depends
from fastmcp.resources import ResourceTemplate

mcp = FastMCP("templates")


def get_db() -> str:
    return "db"


@mcp.resource("items://{item_id}")
def plain(item_id: str) -> str:
    return item_id


@mcp.resource(uri="users://{name}/profile", name="profile")
def keyword_uri(name: str) -> dict:
    return {"name": name}


@mcp.resource("items://{item_id}/ctx")
def with_context(item_id: str, ctx: Context) -> str:  # want: MCP103
    return item_id


@mcp.resource("items://{item_id}/opt")
def with_optional_context(item_id: str, ctx: Optional[fastmcp.Context] = None) -> str:  # want: MCP103
    return item_id


@mcp.resource("items://{item_id}/db")
def with_depends(item_id: str, db: str = Depends(get_db)) -> str:  # want: MCP103
    return db + item_id


@mcp.resource("config://static")
def static(ctx: Context) -> str:  # want: MCP103
    return "static"


@mcp.resource("config://plain")
def static_plain() -> str:  # want: MCP103
    return "static"


def called_form(item_id: str) -> str:
    return item_id


def called_form_ctx(item_id: str, ctx: Context) -> str:  # want: MCP103
    return item_id


def from_function(item_id: str) -> str:
    return item_id


mcp.resource("called://{item_id}")(called_form)
mcp.resource("called://{item_id}/ctx")(called_form_ctx)
mcp.add_template(ResourceTemplate.from_function(from_function, uri_template="ff://{item_id}"))
