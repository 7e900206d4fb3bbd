"""One-time approval of project MCP servers (`.mcp.json`).

A `.mcp.json` arrives with a cloned repository: starting its commands without asking would let any
repository run programs on this machine. So each project server is started only after the user
said yes once; the answer (yes or no) is remembered per project directory and server name in
`<data dir>/mcp_approvals.json`:

    {"/path/to/project": {"github": true, "evil": false}}

and, as Claude Code records the same choice, in the project's `enabledMcpjsonServers` /
`disabledMcpjsonServers` lists of its `.claude.json` (read too when we have no answer of our
own), so a choice made in either program is found by both.

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
from claude_harness.mcp.config import McpServerConfig, local_project_key, user_config_file

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
    """True (approved), False (rejected) or None (never asked): our record, else Claude Code's
    (`enabledMcpjsonServers` / `disabledMcpjsonServers` of the project in `.claude.json`), so a
    server approved in either program starts in both."""
    ours = _load(approvals_path()).get(_key(project), {}).get(server)
    return ours if ours is not None else _claude_code_choice(project, server)


def _claude_code_project(doc: Any, project: Path) -> dict[str, Any]:
    projects = doc.get("projects") if isinstance(doc, dict) else None
    entry = projects.get(local_project_key(project)) if isinstance(projects, dict) else None
    return entry if isinstance(entry, dict) else {}


def _claude_code_choice(project: Path, server: str) -> bool | None:
    try:
        doc = json.loads(user_config_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = _claude_code_project(doc, project)
    for key, answer in (("disabledMcpjsonServers", False), ("enabledMcpjsonServers", True)):
        names = entry.get(key)
        if isinstance(names, list) and server in names:
            return answer
    return None


def _record_for_claude_code(project: Path, server: str, approved: bool) -> None:
    """The same answer in Claude Code's lists (best effort: a user config that is not JSON is
    left alone, and our own record still holds the answer)."""
    def record(doc: dict[str, Any]) -> None:
        projects = doc.setdefault("projects", {})
        entry = projects.setdefault(local_project_key(project), {}) \
            if isinstance(projects, dict) else None
        if not isinstance(entry, dict):
            return
        keep, drop = (("enabledMcpjsonServers", "disabledMcpjsonServers") if approved
                      else ("disabledMcpjsonServers", "enabledMcpjsonServers"))
        for key in (keep, drop):
            if not isinstance(entry.get(key), list):
                entry[key] = []
        entry[drop] = [n for n in entry[drop] if n != server]
        if server not in entry[keep]:
            entry[keep].append(server)

    try:
        update_json_file(user_config_file(), record)
    except (OSError, ValueError):
        pass


def record_approval(project: Path, server: str, approved: bool) -> None:
    """Remember the user's answer (the locked atomic writer: no half file after a crash, no
    answer lost to another session approving at the same moment)."""
    def record(data: dict[str, Any]) -> None:
        entry = data.get(_key(project))
        if not isinstance(entry, dict):
            entry = data[_key(project)] = {}
        entry[server] = bool(approved)

    update_json_file(approvals_path(), record)
    _record_for_claude_code(project, server, approved)


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
    def from_values(cls, value: Callable[[str], Any], *, trusted: bool = True) -> ProjectPolicy:
        """`value(key)` returns a setting or None (e.g. `LoadedSettings.value`).

        In a folder not trusted yet the enabling keys count from no source, the user's own
        included: `.mcp.json` arrived with the clone, and a name the user enabled for another
        project (`enabledMcpjsonServers: ["github"]`) would start whatever command this
        repository gives that name. The disabled list always applies."""

        def names(key: str) -> frozenset[str]:
            raw = value(key)
            return frozenset(str(n) for n in raw) if isinstance(raw, list) else frozenset()

        disabled = names("disabledMcpjsonServers")
        if not trusted:
            return cls(disabled=disabled)
        return cls(enable_all=value("enableAllProjectMcpServers") is True,
                   enabled=names("enabledMcpjsonServers"), disabled=disabled)

    @classmethod
    def from_settings(cls, loaded: Any, *, trusted: bool) -> ProjectPolicy:
        """From a `LoadedSettings`: every source but the committed `.claude/settings.json`
        (which would let a repository approve its own servers), and nothing that enables
        before the folder is trusted."""
        def value(key: str) -> Any:
            for src in loaded.sources:  # highest precedence first
                if src.source == "projectSettings":
                    continue
                data = src.settings.model_dump(exclude_unset=True)
                if data.get(key) is not None:
                    return data[key]
            return None

        return cls.from_values(value, trusted=trusted)

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
