"""The tips under the app's spinner, and `spinnerTipsEnabled` (Claude Code: "Whether to show
tips in the spinner"; default true): `false` in any settings file the most specific one that
sets it (user, project, local) hides them. Read at start and when /config changes it.

Plain json, not the settings models: the app reads it before the session is built.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.editor_mode import read_key
from claude_harness.config.paths import (
    local_settings_path,
    project_settings_path,
    user_settings_path,
)

TIPS: tuple[str, ...] = (  # each short enough for one line of an 80-column terminal
    "Use /btw to ask a side question without interrupting Claude",  # Claude Code's words
    "Press Esc twice to rewind to an earlier prompt",
    "Start the prompt with ! to run a shell command yourself",
    "Mention a file with @ to attach it to your prompt",
    "Shift+Tab cycles the permission mode, plan mode among them",
    "/context shows what fills the context window",
    "Put project conventions in CLAUDE.md (/init writes one)",
)


def tips_enabled(cwd: Path) -> bool:
    chosen: object = None
    for path in (user_settings_path(), project_settings_path(cwd), local_settings_path(cwd)):
        value = read_key(path, "spinnerTipsEnabled")
        if value is not None:
            chosen = value
    return chosen is not False


def spinner_tips(cwd: Path) -> tuple[str, ...]:
    """The tips to rotate under the spinner; none when the settings turn them off."""
    return TIPS if tips_enabled(cwd) else ()
