"""Managers that a session builds in __init__, and a registry that hands out sessions."""

import anyio


class AccountManager:
    async def list_accounts(self) -> list[str]:
        return await anyio.to_thread.run_sync(sorted, ["b", "a"])  # want: MCP101

    async def count(self) -> int:
        n = await anyio.to_thread.run_sync(len, ["a"])
        await anyio.lowlevel.checkpoint()
        return n


class InvoiceManager:
    async def list_invoices(self) -> list[str]:
        return await anyio.to_thread.run_sync(sorted, ["y", "x"])  # want: MCP101


class ReportManager:
    async def render(self) -> str:
        return await anyio.to_thread.run_sync(str.upper, "r")  # want: MCP101


class Unused:
    """Has the same method names; no handler reaches it."""

    async def list_accounts(self) -> list[str]:
        return await anyio.to_thread.run_sync(sorted, ["z"])

    async def render(self) -> str:
        return await anyio.to_thread.run_sync(str.lower, "u")


class Session:
    def __init__(self, token: str) -> None:
        self.token = token
        self.account_manager = AccountManager()
        self.invoice_manager = InvoiceManager()


class SessionRegistry:
    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}

    def get_session(self, token: str) -> Session:
        return self.sessions.setdefault(token, Session(token))

    def reports(self):
        return ReportManager()
