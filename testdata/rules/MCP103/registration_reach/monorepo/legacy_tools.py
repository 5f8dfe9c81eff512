"""Registers on the shared server at import time, but no module imports it any more."""

import time

from monorepo.server import mcp


@mcp.tool()
def legacy_export(table: str) -> str:
    time.sleep(1)
    return table
