from mcp.shared import session


def install() -> None:
    sdk_respond = session.RequestResponder.respond
    sdk_cancel = session.RequestResponder.cancel

    async def respond(self, *args, **kwargs):
        if self._completed:
            return
        return await sdk_respond(self, *args, **kwargs)

    async def cancel(self, *args, **kwargs):
        if self._completed:
            return
        return await sdk_cancel(self, *args, **kwargs)

    setattr(session.RequestResponder, "respond", respond)
    setattr(session.RequestResponder, "cancel", cancel)


install()
