import functools

import mcp.shared.session as sdk_session


def _once(method):
    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        if getattr(self, "_completed", False):
            return None
        return await method(self, *args, **kwargs)

    return wrapper


RR = sdk_session.RequestResponder
RR.respond, RR.cancel = _once(RR.respond), _once(RR.cancel)
