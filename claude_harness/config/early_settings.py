"""One key of the settings files as the front ends read it before the session exists: the
user's, the project's and the local file, the most specific that sets it winning.

Plain json, not the settings models (pydantic): the app reads these before its first paint and
the REPL before its first line, while the full settings loader is built later, with the
session. editorMode, vimInsertModeRemaps, theme and spinnerTipsEnabled are read this way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from claude_harness.config.paths import (
    local_settings_path,
    project_settings_path,
    user_settings_path,
)


def most_specific(cwd: Path, key: str,
                  accept: Callable[[object], bool] = lambda value: value is not None) -> object:
    """The value of `key` in the most specific settings file whose value `accept` takes, or
    None when none does."""
    chosen: object = None
    for path in (user_settings_path(), project_settings_path(cwd), local_settings_path(cwd)):
        value = read_key(path, key)
        if accept(value):
            chosen = value
    return chosen


def read_key(path: Path, key: str) -> object:
    """`key` of the JSON object in `path`; None when the file is missing, unreadable, not JSON
    or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get(key) if isinstance(data, dict) else None
