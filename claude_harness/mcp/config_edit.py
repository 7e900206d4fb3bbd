"""Add and remove MCP servers in the files Claude Code keeps them in, so a server added by
either program is seen by both (`claude mcp add` and `claude-harness mcp add` write the same
entries in the same places, checked against Claude Code 2.1.332's own writes):

  local    the user config file (`$CLAUDE_CONFIG_DIR/.claude.json` or `~/.claude.json`),
           `projects["<repository root, or the folder outside one>"].mcpServers`
  project  `.mcp.json` in the current folder
  user     the user config file, top-level `mcpServers`

Every change goes through the locked atomic JSON writer (config/settings_write.py): the other
program (or another session) may be changing `.claude.json` at the same moment, and a file that
is not a JSON object is never overwritten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_harness.config.settings_write import update_json_file
from claude_harness.mcp.config import Scope, local_project_key, user_config_file

SCOPES: tuple[Scope, ...] = ("local", "project", "user")  # the ones a file holds
SCOPE_NAMES = {"local": "Local config (private to you in this project)",
               "project": "Project config (shared via .mcp.json)",
               "user": "User config (available in all your projects)"}


class McpEditError(ValueError):
    """The change cannot be made (the name is taken, not found, or found in several scopes)."""


@dataclass(frozen=True)
class Stored:
    """One server entry as a file holds it (before variable expansion)."""

    name: str
    scope: Scope
    path: Path
    entry: dict[str, Any]


def scope_file(scope: str, cwd: Path) -> Path:
    return Path(cwd) / ".mcp.json" if scope == "project" else user_config_file()


def stored_servers(cwd: Path) -> list[Stored]:
    """Every server in the three scopes, local first (the order Claude Code searches them)."""
    found: list[Stored] = []
    for scope in SCOPES:
        path = scope_file(scope, cwd)
        servers = _servers_in(_read_object(path), scope, cwd)
        found += [Stored(name, scope, path, dict(entry)) for name, entry in servers.items()
                  if isinstance(entry, dict)]  # type: ignore[arg-type]
    return found


def add_server(name: str, entry: dict[str, Any], scope: str, cwd: Path) -> Stored:
    """Store `entry` under `name` in `scope`; an existing server of that name there is an error
    (as in Claude Code: remove it first)."""
    path = scope_file(scope, cwd)

    def change(doc: dict[str, Any]) -> None:
        servers = _servers_for_writing(doc, scope, cwd)
        if name in servers:
            raise McpEditError(f"MCP server {name} already exists in {scope} config")
        servers[name] = entry

    update_json_file(path, change)
    return Stored(name, scope, path, entry)  # type: ignore[arg-type]


def remove_server(name: str, scope: str | None, cwd: Path) -> Stored:
    """Remove `name` from `scope`, or from the one scope that has it."""
    matches = [s for s in stored_servers(cwd) if s.name == name
               and (scope is None or s.scope == scope)]
    if not matches:
        raise McpEditError(_not_found(name, cwd, scope))
    if len(matches) > 1:
        lines = [f'MCP server "{name}" exists in multiple scopes:']
        lines += [f"  - {SCOPE_NAMES[m.scope]} ({where(m, cwd)})" for m in matches]
        lines += ["", "To remove from a specific scope, use:"]
        lines += [f"  claude-harness mcp remove {name} -s {m.scope}" for m in matches]
        raise McpEditError("\n".join(lines))
    target = matches[0]

    def change(doc: dict[str, Any]) -> None:
        _servers_for_writing(doc, target.scope, cwd).pop(name, None)

    update_json_file(target.path, change)
    return target


def reset_project_choices(cwd: Path) -> None:
    """Forget which `.mcp.json` servers were approved or rejected for this project, in Claude
    Code's record (`.claude.json`) and in ours (approvals.py)."""
    from claude_harness.mcp.approvals import forget_project

    key = local_project_key(cwd)

    def change(doc: dict[str, Any]) -> None:
        project = doc.setdefault("projects", {}).setdefault(key, {})
        if isinstance(project, dict):
            project.update(enabledMcpjsonServers=[], disabledMcpjsonServers=[],
                           enableAllProjectMcpServers=False)

    update_json_file(user_config_file(), change)
    for folder in dict.fromkeys([Path(cwd).resolve(), Path(key)]):
        forget_project(folder)


def where(stored: Stored, cwd: Path) -> str:
    """The file a server lives in, as Claude Code names it ("~/.claude.json [project: /repo]")."""
    if stored.scope == "local":
        return f"{stored.path} [project: {local_project_key(cwd)}]"
    return str(stored.path)


def _not_found(name: str, cwd: Path, scope: str | None) -> str:
    names = sorted({s.name for s in stored_servers(cwd)})
    place = f" in {scope} config" if scope else ""
    return (f'No MCP server named "{name}"{place}. Configured servers: '
            f'{", ".join(names) or "none"}')


def not_found_message(name: str, cwd: Path) -> str:
    return _not_found(name, cwd, None)


def _read_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _servers_in(doc: dict[str, Any], scope: str, cwd: Path) -> dict[str, Any]:
    holder: Any = doc
    if scope == "local":
        holder = (doc.get("projects") or {}).get(local_project_key(cwd))
    servers = holder.get("mcpServers") if isinstance(holder, dict) else None
    return servers if isinstance(servers, dict) else {}


def _servers_for_writing(doc: dict[str, Any], scope: str, cwd: Path) -> dict[str, Any]:
    holder = doc
    if scope == "local":
        projects = doc.setdefault("projects", {})
        if not isinstance(projects, dict):
            raise McpEditError("`projects` in the user config is not a JSON object")
        holder = projects.setdefault(local_project_key(cwd), {})
    servers = holder.setdefault("mcpServers", {}) if isinstance(holder, dict) else None
    if not isinstance(servers, dict):
        raise McpEditError(f"`mcpServers` in the {scope} config is not a JSON object")
    return servers
