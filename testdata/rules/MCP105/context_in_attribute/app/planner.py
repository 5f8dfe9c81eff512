class Planner:
    """Keeps the request's Context it was given; the parameter has no annotation."""

    def __init__(self, ctx, session=None):
        self.ctx = ctx
        self.session = session

    async def plan(self, goal: str) -> str:
        reply = await self.ctx.sample(messages=goal)  # want: MCP105
        return str(reply)

    async def roots(self) -> list:
        listed = await self.session.list_roots()  # want: MCP105
        return list(listed.roots)


class Echo:
    def __init__(self, client):
        self.client = client

    async def sample(self, text: str) -> str:
        # client is a plain object of the project, not a Context
        return await self.client.sample(text)


class Mirror:
    async def sample(self, text: str) -> str:
        return text
