"""Stop answering cancelled requests; probes the SDK before patching it."""
from mcp.shared import session as _sdk_session


def install() -> bool:
    responder = getattr(_sdk_session, "RequestResponder", None)
    if responder is None:
        return False

    async def _cancel_quietly(self):
        # cancel and mark completed, send nothing: respond() still asserts
        self._cancel_scope.cancel()
        self._completed = True

    responder.cancel = _cancel_quietly  # want: MCP106
    return True


install()
