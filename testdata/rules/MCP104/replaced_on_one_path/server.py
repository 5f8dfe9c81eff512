"""An except that re-raises on one path but raises a different exception on
another (linkedin drivers/browser.py _authenticate_existing_profile)."""

import asyncio

import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("replaced")


class AuthenticationError(Exception):
    pass


class BrowserShutdownUnconfirmedError(Exception):
    pass


class BrowserManager:
    async def start(self) -> None:
        await asyncio.sleep(1)

    async def close(self) -> bool:
        return False


async def _feed_auth_succeeds(browser: BrowserManager) -> bool:
    await asyncio.sleep(1)
    return True


async def _authenticate_existing_profile(profile_dir: str) -> BrowserManager:
    browser = BrowserManager()
    try:
        await browser.start()
        if not await _feed_auth_succeeds(browser):
            raise AuthenticationError(f"Stored runtime profile is invalid: {profile_dir}.")
        return browser
    except BaseException as exc:  # want: MCP104
        # BaseException so a cancelled startup still tears Chromium down.
        if not await browser.close():
            raise BrowserShutdownUnconfirmedError(
                "The browser did not shut down cleanly after a failed startup, so the profile is kept."
            ) from exc
        raise


@mcp.tool()
async def login(profile_dir: str) -> str:
    browser = await _authenticate_existing_profile(profile_dir)
    return str(browser)


@mcp.tool()
async def dispatch_first(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            raise
        raise AuthenticationError(str(exc)) from exc
    return profile_dir


@mcp.tool()
async def ordinary_only(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:
        if isinstance(exc, (ValueError, OSError)):
            raise AuthenticationError(str(exc)) from exc
        raise
    return profile_dir


@mcp.tool()
async def negated_check(profile_dir: str) -> str:
    cancelled = anyio.get_cancelled_exc_class()
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:
        if not isinstance(exc, cancelled):
            raise AuthenticationError(str(exc)) from exc
        raise
    return profile_dir


@mcp.tool()
async def else_branch(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:
        if type(exc) is asyncio.CancelledError:
            raise
        else:
            raise AuthenticationError(str(exc)) from exc
    return profile_dir


@mcp.tool()
async def wrong_guard(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:  # want: MCP104
        if isinstance(exc, BaseException):
            raise AuthenticationError(str(exc)) from exc
        raise
    return profile_dir


@mcp.tool()
async def not_an_exception_reraised(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:
        # the cancellation is no Exception: it leaves by the first raise
        if not isinstance(exc, Exception) or isinstance(exc, ValueError):
            raise exc
        raise AuthenticationError(str(exc)) from exc
    return profile_dir


@mcp.tool()
async def not_an_exception_only(profile_dir: str) -> str:
    try:
        await _feed_auth_succeeds(BrowserManager())
    except BaseException as exc:  # want: MCP104
        # ValueError is an Exception: the cancellation reaches the other raise
        if not isinstance(exc, ValueError):
            raise AuthenticationError(str(exc)) from exc
        raise
    return profile_dir
