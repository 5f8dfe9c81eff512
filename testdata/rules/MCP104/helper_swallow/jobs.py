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
