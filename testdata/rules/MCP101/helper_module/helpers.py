import hashlib

import anyio


def _hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


async def hash_file(path: str) -> str:
    return await anyio.to_thread.run_sync(_hash, path)  # want: MCP101


async def read_file(path: str) -> str:
    # the only caller logs to the client right after: covered there
    return await anyio.to_thread.run_sync(_hash, path)


async def checked(path: str) -> str:
    value = await hash_file_inner(path)
    await anyio.lowlevel.checkpoint()
    return value


async def hash_file_inner(path: str) -> str:
    return await anyio.to_thread.run_sync(_hash, path)
