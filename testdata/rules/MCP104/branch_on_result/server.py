"""A branch on what an awaited close() returned.

`if not await session.close(): raise ToolError(...) from exc` inside an
except that caught the cancellation raises another exception only when
close() gave a falsy result. When close() gives one only after awaiting
real I/O, anyio re-delivers the cancellation at that await, so the raise
cannot follow a client's cancel (SPEC section 1).
"""

import asyncio

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from playwright.async_api import Browser, Playwright, async_playwright

mcp = FastMCP("branch-on-result")


class Session:
    def __init__(self) -> None:
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._http = httpx.AsyncClient(base_url="http://browser-service")
        self.closed_cleanly = True
        self._last_ok = True

    async def start(self) -> None:
        self._pw = await async_playwright().start()
        self._browser = await self._pw.chromium.launch()

    async def shot(self, url: str) -> bytes:
        page = await self._browser.new_page()
        await page.goto(url)
        return await page.screenshot()

    async def close(self) -> bool:
        """True when nothing is left running; False only after a failed
        or timed-out shutdown request, which has awaited the service."""
        browser = self._browser
        pw = self._pw
        self._browser = None
        self._pw = None
        if browser is None and pw is None:
            return True
        ok = True
        if browser is not None:
            try:
                await asyncio.wait_for(self._http.post("/close"), timeout=10)
            except TimeoutError:
                ok = False
            except Exception:
                ok = False
        if pw is not None:
            try:
                await pw.stop()
            except Exception:
                ok = False
        return ok

    async def close_driver(self) -> bool:
        """Browser.close() returns at once when the browser is already
        closed, and an exception out of it can come before any I/O: its
        False may follow no checkpoint."""
        browser = self._browser
        if browser is None:
            return True
        ok = True
        try:
            await asyncio.wait_for(browser.close(), timeout=10)
        except Exception:
            ok = False
        return ok

    async def close_quick(self) -> bool:
        """Gives False at once when there is no browser: no checkpoint."""
        if self._browser is None:
            return False
        await self._browser.close()
        return True

    async def close_cached(self) -> bool:
        """Its early result is not a constant: it may be falsy."""
        if self._browser is None:
            return self._last_ok
        await self._browser.close()
        return True

    def close_sync(self) -> bool:
        self._browser = None
        return True


@mcp.tool()
async def screenshot(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:
        if not await session.close():
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_assigned(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:
        closed = await session.close()
        if not closed:
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_driver(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:  # want: MCP104
        if not await session.close_driver():
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_quick(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:  # want: MCP104
        if not await session.close_quick():
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_cached(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:  # want: MCP104
        if not await session.close_cached():
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_flag(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:  # want: MCP104
        # The test is on an attribute, not on what close() returned.
        await session.close_quick()
        if not session.closed_cleanly:
            raise ToolError("the browser did not shut down") from exc
        raise


@mcp.tool()
async def screenshot_sync(url: str) -> bytes:
    session = Session()
    try:
        await session.start()
        return await session.shot(url)
    except BaseException as exc:  # want: MCP104
        if not session.close_sync():
            raise ToolError("the browser did not shut down") from exc
        raise
