import asyncio

import anyio


async def _job_finished(job_id: str) -> None:
    await asyncio.sleep(1)


async def wait_quietly(job_id: str) -> None:
    try:
        await asyncio.wait_for(_job_finished(job_id), timeout=30)
    except (asyncio.TimeoutError, asyncio.CancelledError):  # want: MCP104
        pass


async def wait_then_checkpoint(job_id: str) -> None:
    try:
        await asyncio.wait_for(_job_finished(job_id), timeout=30)
    except (asyncio.TimeoutError, asyncio.CancelledError):
        pass
    await anyio.lowlevel.checkpoint()


async def retry(operation, attempts: int = 3):
    """Runs the operation's coroutine, retrying on connection errors."""
    for _ in range(attempts):
        try:
            return await operation()
        except ConnectionError:
            continue
    raise ConnectionError("gave up")


class Settler:
    async def run(self, job_id: str) -> str:
        await settle(job_id)
        return "settled"


async def settle(job_id: str) -> None:
    try:
        await asyncio.wait_for(asyncio.shield(_job_finished(job_id)), timeout=5)
    except asyncio.CancelledError:  # want: MCP104
        pass


async def drain(job_id: str) -> None:
    task = asyncio.ensure_future(_job_finished(job_id))
    while not task.done():
        await asyncio.sleep(0.1)
    try:
        await task  # already done: only the task's own cancellation is caught here
    except asyncio.CancelledError:
        pass
