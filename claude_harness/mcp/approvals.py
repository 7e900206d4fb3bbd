"""One-time approval of project MCP servers (`.mcp.json`).

A `.mcp.json` arrives with a cloned repository: starting its commands without asking would let any
repository run programs on this machine. So each project server is started only after the user
said yes once; the answer (yes or no) is remembered per project directory and server name in
`<data dir>/mcp_approvals.json`:

    {"/path/to/project": {"github": true, "evil": false}}

Servers from the user's own config and from `--mcp-config` need no approval: the user wrote them.
Front ends call `pending_approvals()` to learn which servers to ask about and `record_approval()`
with the answer (or `resolve_approvals()` with an `ask` callback that does both).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.config.settings_write import update_json_file
from claude_harness.mcp.config import McpServerConfig

APPROVALS_FILE = "mcp_approvals.json"

Ask = Callable[[McpServerConfig], "bool | Awaitable[bool]"]


def approvals_path() -> Path:
    from claude_harness.config.paths import data_dir

    return data_dir() / APPROVALS_FILE


def _load(path: Path) -> dict[str, dict[str, bool]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): {str(n): bool(a) for n, a in v.items()}
            for k, v in data.items() if isinstance(v, dict)}


def _key(project: Path) -> str:
    return str(Path(project).resolve())


def get_approval(project: Path, server: str) -> bool | None:
    """True (approved), False (rejected) or None (never asked)."""
    return _load(approvals_path()).get(_key(project), {}).get(server)


def record_approval(project: Path, server: str, approved: bool) -> None:
    """Remember the user's answer (the locked atomic writer: no half file after a crash, no
    answer lost to another session approving at the same moment)."""
    def record(data: dict[str, Any]) -> None:
        entry = data.get(_key(project))
        if not isinstance(entry, dict):
            entry = data[_key(project)] = {}
        entry[server] = bool(approved)

    update_json_file(approvals_path(), record)


def forget_project(project: Path) -> None:
    """Drop every answer recorded for `project` (`mcp reset-project-choices`)."""
    update_json_file(approvals_path(), lambda data: data.pop(_key(project), None))


@dataclass(frozen=True)
class ProjectPolicy:
    """Claude Code's settings keys for project servers: `enableAllProjectMcpServers`,
    `enabledMcpjsonServers`, `disabledMcpjsonServers`.

    Build it only from settings the user controls (user, local, managed, CLI): read from the
    committed `.claude/settings.json` it would let a repository approve its own servers.
    """

    enable_all: bool = False
    enabled: frozenset[str] = frozenset()
    disabled: frozenset[str] = frozenset()

    @classmethod
    def from_values(cls, value: Callable[[str], Any]) -> ProjectPolicy:
        """`value(key)` returns a setting or None (e.g. `LoadedSettings.value`)."""

        def names(key: str) -> frozenset[str]:
            raw = value(key)
            return frozenset(str(n) for n in raw) if isinstance(raw, list) else frozenset()

        return cls(enable_all=value("enableAllProjectMcpServers") is True,
                   enabled=names("enabledMcpjsonServers"),
                   disabled=names("disabledMcpjsonServers"))

    def decide(self, name: str) -> bool | None:
        if name in self.disabled:
            return False
        if self.enable_all or name in self.enabled:
            return True
        return None


def needs_approval(server: McpServerConfig) -> bool:
    return server.scope == "project"


def approval_project(server: McpServerConfig, cwd: Path) -> Path:
    """The directory an approval is keyed by: the folder holding the `.mcp.json`."""
    if server.source:
        return Path(server.source).parent
    return cwd


def approval_state(
    server: McpServerConfig, cwd: Path, policy: ProjectPolicy | None = None
) -> bool | None:
    """True: may start; False: the user (or a disabled list) said no; None: ask first."""
    if not needs_approval(server):
        return True
    by_settings = policy.decide(server.name) if policy is not None else None
    if by_settings is False:
        return False
    recorded = get_approval(approval_project(server, cwd), server.name)
    if recorded is not None:
        return recorded
    return by_settings


def pending_approvals(
    servers: Iterable[McpServerConfig], cwd: Path, policy: ProjectPolicy | None = None
) -> list[McpServerConfig]:
    """Project servers the user has never been asked about (and that could start)."""
    return [s for s in servers
            if needs_approval(s) and s.error is None and approval_state(s, cwd, policy) is None]


async def resolve_approvals(
    servers: Iterable[McpServerConfig], cwd: Path, ask: Ask, policy: ProjectPolicy | None = None
) -> dict[str, bool]:
    """Ask about every pending project server and record each answer; returns name -> answer."""
    answers: dict[str, bool] = {}
    for server in pending_approvals(servers, cwd, policy):
        answer = ask(server)
        if inspect.isawaitable(answer):
            answer = await answer
        record_approval(approval_project(server, cwd), server.name, bool(answer))
        answers[server.name] = bool(answer)
    return answers
