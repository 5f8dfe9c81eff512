from starlette.concurrency import run_in_threadpool


async def run(fn):
    return await run_in_threadpool(fn)  # want: MCP101
