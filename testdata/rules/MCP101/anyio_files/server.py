"""anyio's thread-backed file API: AsyncFile, open_file, wrap_file, Path."""
import anyio
from anyio import Path, open_file, wrap_file
from anyio import Path as AsyncPath
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def read_text(path: str) -> str:
    return await anyio.Path(path).read_text()  # want: MCP101


@mcp.tool()
async def write_bytes(path: str, data: bytes) -> None:
    p = Path(path)
    await p.write_bytes(data)  # want: MCP101


@mcp.tool()
async def annotated(p: anyio.Path) -> str:
    text = await p.read_text(encoding="utf-8")  # want: MCP101
    return text


@mcp.tool()
async def joined(root: str) -> bytes:
    base = anyio.Path(root)
    return await base.joinpath("data.bin").read_bytes()  # want: MCP101


@mcp.tool()
async def opened(path: str) -> str:
    # Leaving the async with awaits f.aclose(), to_thread.run_sync without
    # abandon_on_cancel: it starts with a checkpoint (covering the read) and
    # then waits for the close.
    async with await anyio.open_file(path) as f:  # want: MCP101
        data = await f.read()
    return data


@mcp.tool()
async def opened_plain(path: str) -> str:
    f = await open_file(path, "rb")
    try:
        # aclose in the finally starts with a checkpoint: this read is covered.
        return await f.read()
    finally:
        await f.aclose()  # want: MCP101


@mcp.tool()
async def opened_by_path(path: str) -> str:
    async with await anyio.Path(path).open() as f:  # want: MCP101
        await f.write("x")
    return "ok"


@mcp.tool()
async def wrapped(fp) -> str:
    f = wrap_file(fp)
    await f.seek(0)  # want: MCP101
    return "ok"


@mcp.tool()
async def lines(path: str) -> int:
    n = 0
    async with await anyio.open_file(path) as f:  # want: MCP101
        async for _ in f:
            n += 1
    return n


@mcp.tool()
async def open_last(path: str) -> str:
    f = await anyio.open_file(path)  # want: MCP101
    return "opened"


@mcp.tool()
async def cwd() -> str:
    return str(await anyio.Path.cwd())  # want: MCP101


@mcp.tool()
async def walked(root: str) -> int:
    n = 0
    async for _ in anyio.Path(root).walk():  # want: MCP101
        n += 1
    return n


@mcp.tool()
async def temp_dir() -> int:
    async with anyio.TemporaryDirectory() as d:  # want: MCP101
        pass
    return 1


@mcp.tool()
async def mkstemp() -> str:
    _, name = await anyio.mkstemp()  # want: MCP101
    return name


@mcp.tool()
async def return_inside(path: str) -> str:
    # The return runs the exit's close after the read: a wait with nothing
    # after it. No fix: a checkpoint after the with would not run.
    async with await anyio.open_file(path) as f:  # want: MCP101
        return await f.read()


@mcp.tool()
async def file_value(path: str) -> str:
    f = await anyio.open_file(path)
    async with f:  # want: MCP101
        await f.write("x")
    return "ok"


@mcp.tool()
async def divided(root: str, name: str) -> str:
    return await (AsyncPath(root) / name).read_text()  # want: MCP101


class Store:
    def __init__(self, root: str) -> None:
        self.root: anyio.Path = anyio.Path(root)

    async def save(self, data: str) -> None:
        await self.root.write_text(data)  # want: MCP101


store = Store("/tmp")


@mcp.tool()
async def save(data: str) -> str:
    await store.save(data)
    return "saved"
