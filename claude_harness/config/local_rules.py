"""The one writer of permission rules in `.claude/settings.local.json`.

"Yes, and don't ask again", `/permissions add|remove` and an SDK's `updatedPermissions` all come
here. Every change is a locked, atomic read-modify-write (config/settings_write.py), so rules
saved at the same moment by several sessions are all kept, and a file that is not a JSON object
is never overwritten.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.config.settings_write import update_json_file
from claude_harness.permissions.rules import parse_rule, split_rules
from claude_harness.protocol.permission_data import RuleBehavior


def local_settings_path(cwd: Path) -> Path:
    return Path(cwd) / ".claude" / "settings.local.json"


def update_local_rules(cwd: Path, *, add: str = "", remove: str = "",
                       behavior: RuleBehavior = "allow") -> tuple[Path, bool]:
    """Add rule(s) to `behavior`'s list and/or remove a rule from every list.

    Returns the path and whether anything changed. Raises ValueError (changing nothing) when
    the file exists but is not a JSON object, or when a rule to add does not parse.
    """
    return update_rules_file(local_settings_path(cwd), add=add, remove=remove,
                             behavior=behavior)


def update_rules_file(path: Path, *, add: str = "", remove: str = "",
                      behavior: RuleBehavior = "allow") -> tuple[Path, bool]:
    """update_local_rules for any settings file (/permissions saves to the user, project or
    local file the person picks)."""
    rules = split_rules(add) if add else []
    for rule in rules:
        parse_rule(rule)
    changed = False

    def change(data: dict[str, Any]) -> None:
        nonlocal changed
        perms = data.setdefault("permissions", {})
        if not isinstance(perms, dict):
            raise ValueError(f"{path}: 'permissions' is not an object; not changing it")
        if rules:
            current = perms.setdefault(behavior, [])
            if not isinstance(current, list):
                raise ValueError(f"{path}: 'permissions.{behavior}' is not a list; not changing it")
            for rule in dict.fromkeys(rules):
                if rule not in current:
                    current.append(rule)
                    changed = True
        if remove:
            for kind in ("allow", "deny", "ask"):
                items = perms.get(kind)
                if isinstance(items, list) and remove in items:
                    perms[kind] = [r for r in items if r != remove]
                    changed = True

    if rules or remove:
        update_json_file(path, change)
    return path, changed
