"""Handlers call methods on a backend the analysis cannot tell (loaded by a computed name)."""

import importlib
import os

import anyio
import httpx
from mcp.server.fastmcp import FastMCP

from backends import queue  # noqa: F401  (its classes are loaded by name)
from backends.files import FileBackend

mcp = FastMCP("possibly-reached")


def load_backend(name):
    # The module is named at run time: the engine cannot tell what this returns.
    return getattr(importlib.import_module(f"backends.{name}"), "Backend")()


BACKEND = load_backend(os.environ.get("BACKEND", "files"))


@mcp.tool()
async def download(url: str) -> str:
    # Unresolved receiver; one project def is named download and admits one
    # argument: FileBackend.download is possibly reached.
    return await BACKEND.download(url)


@mcp.tool()
async def upload(url: str) -> str:
    # FileBackend.upload needs two arguments: the arity does not fit.
    return await BACKEND.upload(url)


@mcp.tool()
async def render(url: str) -> str:
    # The receiver is a library's client: never matched to project defs.
    async with httpx.AsyncClient() as client:
        return await client.render(url)


@mcp.tool()
async def process(item: str) -> str:
    # Four project defs are named process: more than the fallback follows.
    return await BACKEND.process(item)


@mcp.tool()
async def stat(path: str) -> str:
    # A resolved call reaches FileBackend.stat: its finding is an error, and
    # the unresolved call below does not report it again.
    await FileBackend().stat(path)
    return await BACKEND.stat(path)


@mcp.tool()
async def local(path: str) -> str:
    return await anyio.to_thread.run_sync(len, path)  # want: MCP101
