# An async for runs its iterable a step at a time in the handler's task: an
# async generator's body from one yield to the next, or a project class's
# __anext__. What a step awaits is in the handler's reach, and where the step
# ends the loop goes on.
import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("async-iteration")


def read_chunk(i: int) -> str:
    return str(i)


async def chunks(n: int):
    for i in range(n):
        yield await anyio.to_thread.run_sync(read_chunk, i)  # want: MCP101


async def chunks_with_progress(n: int):
    for i in range(n):
        # covered: its only consumer's loop body reports progress after each item
        yield await anyio.to_thread.run_sync(read_chunk, i)


async def records(n: int):
    for i in range(n):
        yield await anyio.to_thread.run_sync(read_chunk, i)  # want: MCP101


class Pages:
    def __init__(self, n: int) -> None:
        self.n = n
        self.i = 0

    def __aiter__(self) -> "Pages":
        return self

    async def __anext__(self) -> str:
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return await anyio.to_thread.run_sync(read_chunk, self.i)  # want: MCP101


class Lines:
    def __aiter__(self) -> "Lines":
        return self

    async def __anext__(self) -> str:
        # the last step's wait: the loop's StopAsyncIteration comes after
        line = await anyio.to_thread.run_sync(read_chunk, 0)  # want: MCP101
        if not line:
            raise StopAsyncIteration
        return line


class Rows:
    def __aiter__(self) -> "Rows":
        return self

    async def __anext__(self) -> str:
        await anyio.sleep(0)
        raise StopAsyncIteration


class Quiet:
    def __aiter__(self) -> "Quiet":
        return self

    async def __anext__(self) -> str:
        raise StopAsyncIteration


@mcp.tool()
async def joined(n: int) -> str:
    out = []
    async for c in chunks(n):
        out.append(c)
    return "".join(out)


@mcp.tool()
async def with_progress(n: int, ctx: Context) -> str:
    out = []
    async for c in chunks_with_progress(n):
        out.append(c)
        await ctx.report_progress(len(out), n)
    return "".join(out)


@mcp.tool()
async def paged(n: int) -> str:
    out = []
    async for page in Pages(n):
        out.append(page)
    return "".join(out)


@mcp.tool()
async def lines_held() -> str:
    lines = Lines()
    out = []
    async for line in lines:  # the iterable is a name: its __anext__ runs all the same
        out.append(line)
    return "".join(out)


@mcp.tool()
async def records_held() -> str:
    stream = records(3)  # the generator object, stepped by the loop below
    out = []
    async for record in stream:
        out.append(record)
    return "".join(out)


@mcp.tool()
async def then_rows() -> str:
    # covered: every step of Rows checkpoints, the last one too
    first = await anyio.to_thread.run_sync(read_chunk, 0)
    async for row in Rows():
        first += row
    return first


@mcp.tool()
async def then_quiet() -> str:
    first = await anyio.to_thread.run_sync(read_chunk, 0)  # want: MCP101
    async for row in Quiet():
        first += row
    return first
