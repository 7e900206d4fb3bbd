"""Names the API accepts (`^[a-zA-Z0-9_-]{1,128}$`) for MCP tools, prompts and files."""

from __future__ import annotations

import re

MAX_NAME = 128
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def sanitize(name: str) -> str:
    """Make a server, tool or prompt name fit the API's pattern."""
    return _UNSAFE.sub("_", name) or "_"


def mcp_name(server: str, item: str) -> str:
    """`mcp__<server>__<item>`, cut to the API's 128 characters."""
    return f"mcp__{sanitize(server)}__{sanitize(item)}"[:MAX_NAME]
