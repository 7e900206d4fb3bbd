"""Servers switched off in this project: `/mcp`'s "Disable in this project", saved where
Claude Code saves it, so a server disabled in either program stays off in both.

Claude Code 2.1.332 keeps the list in its user config (`$CLAUDE_CONFIG_DIR/.claude.json` or
`~/.claude.json`), in the project's entry (the repository root, or the folder outside one):

    {"projects": {"/repo": {"disabledMcpServers": ["github"]}}}

Disabling appends the name; enabling removes it and leaves the list (possibly `[]`) in place,
as Claude Code does. The list covers servers of every scope (local, project, user, plugin).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.config.settings_write import update_json_file
from claude_harness.mcp.config import local_project_key, user_config_file

KEY = "disabledMcpServers"


def disabled_servers(cwd: Path) -> frozenset[str]:
    """The names disabled for the project holding `cwd` (none when the file is unreadable)."""
    try:
        doc = json.loads(user_config_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return frozenset()
    projects = doc.get("projects") if isinstance(doc, dict) else None
    entry = projects.get(local_project_key(cwd)) if isinstance(projects, dict) else None
    names = entry.get(KEY) if isinstance(entry, dict) else None
    return frozenset(str(n) for n in names) if isinstance(names, list) else frozenset()


def save_disabled(cwd: Path, name: str, disabled: bool) -> None:
    """Add `name` to (or drop it from) the project's list, through the locked atomic writer
    (Claude Code may be changing `.claude.json` at the same moment). Raises OSError or
    ValueError when the file cannot be written or is not a JSON object."""
    def change(doc: dict[str, Any]) -> None:
        projects = doc.setdefault("projects", {})
        if not isinstance(projects, dict):
            raise ValueError("`projects` in the user config is not a JSON object")
        entry = projects.setdefault(local_project_key(cwd), {})
        if not isinstance(entry, dict):
            raise ValueError("this project's entry in the user config is not a JSON object")
        names = [n for n in entry.get(KEY) or [] if isinstance(n, str)]
        if disabled and name not in names:
            names.append(name)
        elif not disabled:
            names = [n for n in names if n != name]
        entry[KEY] = names

    update_json_file(user_config_file(), change)
