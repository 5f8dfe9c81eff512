import anyio


def crunch(data: str) -> str:
    return data.upper()


class Job:
    """Keeps the request's Context it was given; the parameter has no annotation."""

    def __init__(self, ctx):
        self.ctx = ctx

    async def run(self, data: str) -> str:
        result = await anyio.to_thread.run_sync(crunch, data)
        # a Context's report_progress sends a notification: a checkpoint
        await self.ctx.report_progress(1, 1)
        return result

    async def run_quiet(self, data: str) -> str:
        return await anyio.to_thread.run_sync(crunch, data)  # want: MCP101
