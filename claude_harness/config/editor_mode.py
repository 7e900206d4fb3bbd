"""`editorMode`: "vim" gives the prompt vim's NORMAL/INSERT editing, anything else the usual
keys; `vimInsertModeRemaps` ({"jj": "<Esc>"}) leaves INSERT on two typed characters. Read
as Claude Code reads them: the settings files (user, project, local; the most specific wins),
else, for `editorMode`, the global config's own (`.claude.json`).

Plain json, not the settings models: both front ends read it before their first prompt.
"""

from __future__ import annotations

import json
from pathlib import Path

from claude_harness.config.paths import (
    local_settings_path,
    project_settings_path,
    user_settings_path,
)
from claude_harness.config.trust import claude_code_config


def editor_mode(cwd: Path) -> str:
    """"vim" or "normal" ("emacs", Claude Code's old name, is normal)."""
    chosen: object = None
    for path in (user_settings_path(), project_settings_path(cwd), local_settings_path(cwd)):
        value = read_key(path)
        if value is not None:
            chosen = value
    if chosen is None:
        chosen = read_key(claude_code_config())
    return "vim" if chosen == "vim" else "normal"


def insert_remaps(cwd: Path) -> frozenset[str]:
    """The two-character sequences that leave INSERT, as Claude Code takes them: exactly two
    visible characters, "<Esc>" the only target (others are left out)."""
    chosen: object = None
    for path in (user_settings_path(), project_settings_path(cwd), local_settings_path(cwd)):
        value = read_key(path, "vimInsertModeRemaps")
        if value is not None:
            chosen = value
    if not isinstance(chosen, dict):
        return frozenset()
    return frozenset(k for k, v in chosen.items() if v == "<Esc>" and isinstance(k, str)
                     and len(k) == 2 and all(c.isprintable() and not c.isspace() for c in k))


def read_key(path: Path, key: str = "editorMode") -> object:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get(key) if isinstance(data, dict) else None
