"""Which folders the user trusts, and what an untrusted folder's own settings may not do.

A folder is trusted when the user said so at the app's or the REPL's first-start question
(remembered in <data dir>/trusted_folders.json), when Claude Code recorded the same answer
(`projects[<folder>].hasTrustDialogAccepted` in its `.claude.json`, so automation that trusts a
folder for Claude Code works unchanged), or for one run with `--trust-workspace`.

In a folder the user has not trusted, the repository's own settings grant nothing, in every
front end, `-p` included: their allow rules, additional directories, default mode and
environment are ignored and their hooks do not run, each announced by one line in Claude
Code's words ("Ignoring 2 permissions.allow entries from .claude/settings.json: ..."). Their
deny and ask rules still apply. Stdlib only: the app asks before anything heavy loads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from claude_harness.config.paths import project_relative
from claude_harness.config.settings_write import update_json_file

TRUST_FLAG = "--trust-workspace"


class TrustNotice(str):
    """A line about what an untrusted folder's settings lost: shown as is, not as a warning."""


def _trust_file(store: Path) -> Path:
    return store / "trusted_folders.json"


def _load(store: Path) -> list[str]:
    try:
        folders = json.loads(_trust_file(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [str(f) for f in folders] if isinstance(folders, list) else []


def claude_code_config() -> Path:
    """Claude Code's global config file, where its trust dialog records its answers."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(override).expanduser() if override else Path.home()) / ".claude.json"


def _claude_code_trusted(cwd: Path) -> bool:
    try:
        config = json.loads(claude_code_config().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    projects = config.get("projects") if isinstance(config, dict) else None
    project = projects.get(str(cwd)) if isinstance(projects, dict) else None
    return isinstance(project, dict) and project.get("hasTrustDialogAccepted") is True


def is_trusted(store: Path, cwd: Path) -> bool:
    return str(cwd) in _load(store) or _claude_code_trusted(cwd)


def trust_folder(store: Path, cwd: Path) -> None:
    """Remember the user's yes (through the locked writer: two first starts at once keep both
    folders). A trust file that is not a list of folders is replaced by a fresh one."""
    if str(cwd) in _load(store):
        return

    def add(folders: list[Any]) -> None:
        if str(cwd) not in folders:
            folders.append(str(cwd))

    path = _trust_file(store)
    try:
        update_json_file(path, add, kind=list)
    except ValueError:  # unreadable: it trusted nothing anyway (see _load)
        path.unlink(missing_ok=True)
        update_json_file(path, add, kind=list)


def ignored_notice(what: str, count: int | None, origin: Path, cwd: Path) -> TrustNotice:
    """`Ignoring 2 permissions.allow entries from .claude/settings.json: ...` (Claude Code's
    line, with this program's ways to trust the folder)."""
    shown = project_relative(origin, cwd)
    if count is None:
        amount = what
    else:
        noun = "entry" if count == 1 else "entries"
        amount = f"{count} {what} {noun}" if what != "hooks" else \
            f"{count} hook{'' if count == 1 else 's'}"
    return TrustNotice(
        f"Ignoring {amount} from {shown}: this workspace has not been trusted. Run "
        f"claude-harness interactively here once and accept the trust dialog, pass {TRUST_FLAG}, "
        f"or set projects[{json.dumps(str(cwd))}].hasTrustDialogAccepted: true in "
        f"{claude_code_config()}.")

