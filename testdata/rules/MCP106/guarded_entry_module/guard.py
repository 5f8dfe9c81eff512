"""Answer each request once (mcp 1.x idempotence guard)."""
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


RequestResponder.respond = _guarded_respond
RequestResponder.cancel = _guarded_cancel
