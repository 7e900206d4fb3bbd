"""`allowedMcpServers` / `deniedMcpServers`: which MCP servers may start at all, as Claude Code
documents them (usually set by an organisation in managed settings).

Each entry names a server one way: `{"serverName": "github"}`, `{"serverCommand": ["npx",
"-y", "pkg"]}` (the exact command and arguments of a stdio server) or `{"serverUrl":
"https://*.corp.example/*"}` (a remote server's URL, `*` matching anything). The deny list of
every settings source applies and beats the allow list. The allow list is the one of the
highest source that sets it (managed settings first; with `allowManagedMcpServersOnly` in
managed settings only theirs); unset, every server may start; `[]`, none.

strictPluginOnlyCustomization locking "mcp" (config/plugin_only.py) blocks the user's, the
local and the project's (.mcp.json) servers too; plugin servers and --mcp-config ones (a
command-line flag) still start.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServerPolicy:
    allowed: tuple[dict[str, Any], ...] | None = None
    denied: tuple[dict[str, Any], ...] = ()
    plugin_only: bool = False

    @classmethod
    def from_settings(cls, loaded: Any) -> ServerPolicy:
        from claude_harness.config.plugin_only import locked_surfaces

        managed_only = any(s.source == "policySettings" and _raw(s).get(
            "allowManagedMcpServersOnly") is True for s in loaded.sources)
        allowed: tuple[dict[str, Any], ...] | None = None
        denied: list[dict[str, Any]] = []
        for src in loaded.sources:  # highest precedence first
            data = _raw(src)
            denied.extend(_entries(data.get("deniedMcpServers")))
            if allowed is None and isinstance(data.get("allowedMcpServers"), list) and (
                    not managed_only or src.source == "policySettings"):
                allowed = tuple(_entries(data["allowedMcpServers"]))
        return cls(allowed=allowed, denied=tuple(denied),
                   plugin_only="mcp" in locked_surfaces(loaded))

    def blocked(self, server: Any) -> str | None:
        """Why `server` (an McpServerConfig) may not start, or None."""
        if self.plugin_only and server.scope in _OWN_SCOPES and \
                not str(server.source or "").startswith("plugin "):
            from claude_harness.config.plugin_only import PLUGIN_ONLY_NOTE

            return PLUGIN_ONLY_NOTE
        if any(_matches(entry, server) for entry in self.denied):
            return "blocked by deniedMcpServers"
        if self.allowed is not None and not any(_matches(e, server) for e in self.allowed):
            return "not in allowedMcpServers"
        return None


_OWN_SCOPES = frozenset({"user", "local", "project"})


def _raw(src: Any) -> dict[str, Any]:
    return src.settings.model_dump(exclude_unset=True)


def _entries(value: Any) -> Iterable[dict[str, Any]]:
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def _matches(entry: dict[str, Any], server: Any) -> bool:
    if "serverName" in entry:
        return entry["serverName"] == server.name
    if "serverCommand" in entry:
        command = entry["serverCommand"]
        return isinstance(command, list) and bool(server.command) and \
            [str(c) for c in command] == [server.command, *server.args]
    if "serverUrl" in entry and server.url:
        return _url_pattern(str(entry["serverUrl"])).fullmatch(server.url) is not None
    return False


def _url_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")))


def filter_connections(manager: Any, policy: ServerPolicy, warnings: list[str]) -> None:
    """Drop the servers the policy blocks from `manager` before anything starts."""
    kept: list[Any] = []
    for conn in manager.connections:
        reason = policy.blocked(conn.config)
        if reason is None:
            kept.append(conn)
        else:
            warnings.append(f"MCP server {conn.config.name} not started: {reason}")
    manager.connections = kept
