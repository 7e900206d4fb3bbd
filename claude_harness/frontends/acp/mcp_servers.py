"""The MCP servers an ACP client hands to `session/new` and `session/load`, as one
`--mcp-config` value: they connect exactly as servers from `--mcp-config` do (stdio, HTTP,
SSE), beside the user's and the project's own."""

from __future__ import annotations

import json
from typing import Any

from acp.schema import HttpMcpServer, McpServerStdio, SseMcpServer


def mcp_config_value(servers: list[Any] | None) -> str | None:
    """`{"mcpServers": {...}}` for `RunOptions.mcp_config`, or None when there are none. An
    ACP-transport server (unstable, not offered in our capabilities) is left out."""
    entries: dict[str, dict[str, Any]] = {}
    for server in servers or []:
        match server:
            case McpServerStdio():
                entries[server.name] = {"type": "stdio", "command": server.command,
                                        "args": list(server.args),
                                        "env": {v.name: v.value for v in server.env}}
            case HttpMcpServer() | SseMcpServer():
                entries[server.name] = {
                    "type": "sse" if isinstance(server, SseMcpServer) else "http",
                    "url": server.url, "headers": {h.name: h.value for h in server.headers}}
    return json.dumps({"mcpServers": entries}) if entries else None
