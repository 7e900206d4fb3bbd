"""The `theme` setting as both front ends read it at start (config/early_settings.py: the
settings files, the most specific wins; a value that is not a name is passed over)."""

from __future__ import annotations

from pathlib import Path

from claude_harness.config.early_settings import most_specific


def settings_theme(cwd: Path) -> str | None:
    """The chosen theme's name, or None when no settings file names one."""
    chosen = most_specific(cwd, "theme", lambda v: isinstance(v, str) and bool(v.strip()))
    return chosen.strip() if isinstance(chosen, str) else None
