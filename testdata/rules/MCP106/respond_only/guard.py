from mcp.shared.session import RequestResponder

_respond = RequestResponder.respond


async def _guarded_respond(self, response):
    if self._completed:
        return
    await _respond(self, response)


RequestResponder.respond = _guarded_respond  # want: MCP106
