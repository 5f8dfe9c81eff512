"""Answer each request once, written against a probed RequestResponder."""
from mcp.shared import session as _sdk_session

_cls = getattr(_sdk_session, "RequestResponder")
_respond, _cancel = _cls.respond, _cls.cancel


async def _respond_once(self, response):
    if self._completed:
        return
    await _respond(self, response)


async def _cancel_once(self):
    if getattr(self, "_completed", False):
        return
    await _cancel(self)


_cls.respond = _respond_once
_cls.cancel = _cancel_once
