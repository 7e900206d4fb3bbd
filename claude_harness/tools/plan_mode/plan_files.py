"""Where an approved plan is saved (Claude Code's `plansDirectory`: relative to the project
root; unset, `~/.claude/plans`). One Markdown file per approved plan, named from its first
heading, so a plan can be reread after the conversation has moved on. Set once per session by
bootstrap; a disk that refuses the file never fails the approval.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from claude_harness.fsutil.atomic import atomic_write_text

_state: dict[str, Path | None] = {"folder": None}


def configure(folder: Path | None) -> None:
    _state["folder"] = folder


def plans_folder(setting: object, project: Path) -> Path:
    """The folder the `plansDirectory` setting names, or the default."""
    from claude_harness.config.paths import user_config_dir

    if isinstance(setting, str) and setting.strip():
        path = Path(setting.strip()).expanduser()
        return path if path.is_absolute() else project / path
    return user_config_dir() / "plans"


def _slug(plan: str) -> str:
    first = next((line.lstrip("# ").strip() for line in plan.splitlines() if line.strip()), "")
    words = re.sub(r"[^a-z0-9]+", "-", first.lower()).strip("-")[:48].strip("-")
    return f"{words or 'plan'}-{time.strftime('%Y%m%d-%H%M%S')}"


def save_plan(plan: str) -> Path | None:
    """Write the approved plan; its path, or None when there is no folder or it failed."""
    folder = _state["folder"]
    if folder is None:
        return None
    path = folder / f"{_slug(plan)}.md"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, plan if plan.endswith("\n") else plan + "\n")
    except OSError:
        return None
    return path
