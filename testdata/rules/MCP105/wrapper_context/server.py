import functools
import inspect

from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("wrapper-context")


class Confirm(BaseModel):
    ok: bool


class Reviewer:
    async def elicit(self, message: str) -> bool:
        return True


REVIEWERS = {"default": Reviewer()}
PLUGINS = {"context": Reviewer(), "ctx": Reviewer()}


async def review() -> None:
    # Named like a context, but a reviewer object of the project's own.
    ctx = REVIEWERS.get("default")
    await ctx.elicit("Reviewed?")


def confirmed(fn):
    # The wrapper takes the injected Context out of the call's arguments.
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        ctx = kwargs.get("ctx")
        if ctx is not None:
            await ctx.elicit("Proceed?", schema=Confirm)  # want: MCP105
        if "context" in kwargs:
            context = kwargs["context"]
            await context.elicit("Really?", schema=Confirm)  # want: MCP105
        await review()
        return await fn(*args, **kwargs)

    return wrapper


@mcp.tool()
@confirmed
async def delete(key: str, ctx: Context) -> str:
    return key


@mcp.tool()
async def plugin_review(key: str) -> str:
    # Keyed "context" and "ctx", but in the project's own plugin dict, not a
    # wrapper's **kwargs: the project's reviewers, no request to the client.
    context = PLUGINS.get("context")
    await context.elicit("Reviewed?")
    ctx = PLUGINS["ctx"]
    await ctx.elicit("Reviewed?")
    return key


def typed_kwargs(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kw: object):
        ctx = kw.get("ctx")
        await ctx.elicit("Proceed?", schema=Confirm)  # want: MCP105
        return await fn(*args, **kw)

    return wrapper


@mcp.tool()
@typed_kwargs
async def erase(key: str, ctx: Context) -> str:
    return key


def bound_confirmation(fn):
    sig = inspect.signature(fn)

    # The context read from the wrapper's arguments bound to the tool's
    # signature, through a dict copy.
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        bound = sig.bind_partial(*args, **kwargs)
        arguments = dict(bound.arguments)
        ctx = arguments.get("ctx")
        await ctx.elicit("Proceed?", schema=Confirm)  # want: MCP105
        context = sig.bind(*args, **kwargs).arguments["ctx"]
        await context.elicit("Sure?", schema=Confirm)  # want: MCP105
        return await fn(*args, **kwargs)

    return wrapper


@mcp.tool()
@bound_confirmation
async def drop(key: str, ctx: Context) -> str:
    return key


def option_review(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        # A copy of a plugin dict, and a name that is no parameter.
        options = dict(PLUGINS)
        ctx = options.get("ctx")
        await ctx.elicit("Reviewed?")
        context = extra.get("context")
        await context.elicit("Reviewed?")
        return await fn(*args, **kwargs)

    return wrapper


extra = PLUGINS


@mcp.tool()
@option_review
async def purge(key: str, ctx: Context) -> str:
    return key
