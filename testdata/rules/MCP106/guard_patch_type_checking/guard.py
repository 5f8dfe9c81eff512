"""Answer each request once (mcp 1.x idempotence guard)."""
from typing import TYPE_CHECKING

from mcp.shared.session import RequestResponder

_respond, _cancel = RequestResponder.respond, RequestResponder.cancel


async def _guarded_respond(self, response):
    if self._completed:
        return
    await _respond(self, response)


async def _guarded_cancel(self):
    if getattr(self, "_completed", False):
        return None
    await _cancel(self)


if TYPE_CHECKING:  # never true at run time: nothing is patched
    RequestResponder.respond = _guarded_respond
    RequestResponder.cancel = _guarded_cancel
