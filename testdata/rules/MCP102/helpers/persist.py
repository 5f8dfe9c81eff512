import anyio


async def _write(doc: str) -> None:
    return None


async def save(doc: str) -> None:
    with anyio.CancelScope(shield=True):  # want: MCP102
        await _write(doc)


async def save_then_log(doc: str) -> None:
    with anyio.CancelScope(shield=True):
        await _write(doc)
