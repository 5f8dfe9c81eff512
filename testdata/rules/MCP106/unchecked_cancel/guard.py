from mcp.shared.session import RequestResponder

_respond, _cancel = RequestResponder.respond, RequestResponder.cancel


async def _guarded_respond(self, response):
    if self._completed:
        return
    await _respond(self, response)


async def _logged_cancel(self):
    print("cancel", self.request_id)
    await _cancel(self)


RequestResponder.respond = _guarded_respond  # want: MCP106
RequestResponder.cancel = _logged_cancel
