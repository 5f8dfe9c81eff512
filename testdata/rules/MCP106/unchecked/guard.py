import logging

from mcp.shared.session import RequestResponder

_respond, _cancel = RequestResponder.respond, RequestResponder.cancel


async def _logged_respond(self, response):
    logging.debug("responding")
    await _respond(self, response)


async def _late_check_cancel(self):
    await _cancel(self)
    if self._completed:
        return


RequestResponder.respond = _logged_respond  # want: MCP106
RequestResponder.cancel = _late_check_cancel  # want: MCP106
