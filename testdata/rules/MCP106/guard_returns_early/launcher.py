"""The installing function returns early on a switch that has nothing to do
with the SDK: on that path the server runs unguarded."""
import os


def _install_guard() -> None:
    from mcp.shared.session import RequestResponder

    if os.environ.get("BRIDGE_NO_GUARD"):
        return

    async def _respond(self, response):
        if getattr(self, "_completed", False):
            return
        self._completed = True
        await self._session._send_response(request_id=self.request_id, response=response)

    async def _cancel(self):
        self._cancel_scope.cancel()
        if getattr(self, "_completed", False):
            return
        self._completed = True

    RequestResponder.respond = _respond  # want: MCP106
    RequestResponder.cancel = _cancel


def run_bridge() -> None:
    _install_guard()
    from server import mcp

    mcp.run()


if __name__ == "__main__":
    run_bridge()
