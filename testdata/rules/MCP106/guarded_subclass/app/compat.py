import mcp.shared.session
from mcp.shared.session import RequestResponder as _SDKResponder


class OnceResponder(_SDKResponder):
    """A RequestResponder that answers a request at most once."""

    async def respond(self, response):
        if self._completed:
            return
        await super().respond(response)

    async def cancel(self):
        if self._completed:
            return
        await super().cancel()


mcp.shared.session.RequestResponder = OnceResponder
