from app import middle


async def outer(fn):
    return await middle.run(fn)


async def run_inline(fn):
    return fn()
