#!/usr/bin/env python3
# /// script
# requires-python = ">=3.10"
# dependencies = [
#   "mcp>=1.24,<2",
#   "anyio",
# ]
# ///
import mcp
