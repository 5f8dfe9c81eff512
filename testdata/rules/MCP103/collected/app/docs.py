"""Handlers kept in a list, registered by the server in a loop."""

import logging

log = logging.getLogger(__name__)


def get_doc(doc_id: str) -> str:  # want: MCP103
    return doc_id


def upsert_doc(doc_id: str, body: str) -> str:  # want: MCP103
    return body


def helper(doc_id: str) -> str:
    """Not in the list: not a handler."""
    return doc_id


TOOLS = [get_doc, upsert_doc]
