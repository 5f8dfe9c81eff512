import asyncio
import logging

LOG = logging.getLogger(__name__)


async def cancel_and_drain(task: asyncio.Task) -> None:
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    except Exception:
        LOG.warning("Unexpected error while draining cancelled task", exc_info=True)


async def in_task_group() -> None:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass


async def awaited_helper() -> str:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # want: MCP104
        pass
    return "x"


async def helper_then_checkpoint() -> None:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass


async def in_wait_for(n: int) -> str:
    try:
        await asyncio.sleep(n)
    except asyncio.CancelledError:  # want: MCP104
        pass
    return "x"
