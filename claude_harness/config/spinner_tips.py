"""The tips under the app's spinner, and `spinnerTipsEnabled` (Claude Code: "Whether to show
tips in the spinner"; default true): `false` in any settings file the most specific one that
sets it (user, project, local) hides them. Read at start and when /config changes it.

Read as config/early_settings.py reads keys: the app reads it before the session is built.
"""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.early_settings import most_specific

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
    return most_specific(cwd, "spinnerTipsEnabled") is not False


def spinner_tips(cwd: Path) -> tuple[str, ...]:
    """The tips to rotate under the spinner; none when the settings turn them off."""
    return TIPS if tips_enabled(cwd) else ()
