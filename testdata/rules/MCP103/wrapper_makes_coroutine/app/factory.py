"""Builds the functions the server registers from plain executors."""

import asyncio
import functools


def run_db_tool(func, **kwargs):
    return func(**kwargs)


def create_tool(executor_func, name, with_context=False):
    """An async tool that runs executor_func in a worker thread it awaits."""
    if with_context:

        async def _tool(ctx, **kwargs):
            return await asyncio.to_thread(executor_func, **kwargs)

    else:

        async def _tool(**kwargs):
            return await asyncio.to_thread(executor_func, **kwargs)

    _tool.__name__ = name
    return _tool


def sync_tool(func):
    """A sync wrapper: fastmcp runs it in a worker thread."""

    @functools.wraps(func)
    def wrapper(**kwargs):
        return func(**kwargs)

    return wrapper
