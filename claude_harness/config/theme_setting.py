"""The `theme` setting as both front ends read it at start: the settings files (user, project,
local; the most specific wins).

Plain json, not the settings models: the app reads it before its first paint and the REPL
before its first line, while the full settings loader (pydantic) is built later, with the
session.
"""

from __future__ import annotations

import json
from pathlib import Path

from claude_harness.config.paths import (
    local_settings_path,
    project_settings_path,
    user_settings_path,
)


def settings_theme(cwd: Path) -> str | None:
    """The chosen theme's name, or None when no settings file names one."""
    chosen: str | None = None
    for path in (user_settings_path(), project_settings_path(cwd), local_settings_path(cwd)):
        try:
            value = json.loads(path.read_text(encoding="utf-8")).get("theme")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(value, str) and value.strip():
            chosen = value.strip()
    return chosen
