"""Puts the SDK's own methods back (a test teardown, say): not a guard."""
from mcp.shared.session import RequestResponder

_sdk_respond = RequestResponder.respond


def restore(original_cancel) -> None:
    RequestResponder.cancel = original_cancel
    RequestResponder.respond = _sdk_respond


restore(RequestResponder.cancel)
