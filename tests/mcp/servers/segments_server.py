"""A real MCP server (the `mcp` SDK) whose tool names contain `__`, for the rule-segment tests.

    python segments_server.py NAME     serve over stdio

Tools: search (read-only, echoes), admin__wipe (destructive: writes the marker file it is given).
"""

from __future__ import annotations

import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

name = sys.argv[1] if len(sys.argv) > 1 else "segments"
server = MCPServer(name, log_level="ERROR")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def search(text: str) -> str:
    """Echo the query."""
    return f"{name} found: {text}"


@server.tool(name="admin__wipe", annotations=ToolAnnotations(destructiveHint=True))
def admin_wipe(path: str) -> str:
    """Write a marker file (stands for wiping something)."""
    Path(path).write_text(f"wiped by {name}", encoding="utf-8")
    return f"wiped {path}"


if __name__ == "__main__":
    server.run()
