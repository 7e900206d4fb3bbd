"""Theme files (TOML) registered as Textual `Theme` objects.

Built-in themes live in the package (`claude_harness/themes/`, shipped in the wheel and found
through `importlib.resources`, so an installed copy finds them as a checkout does); users may
drop more into `<data dir>/themes/`. Widgets use only `$variables`, so a theme file is all a new look needs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from textual.theme import Theme

from claude_harness.config.paths import data_dir, user_settings_path
from claude_harness.config.settings_write import update_json_file
from claude_harness.themes import builtin_themes_dir

BUILTIN_DIR = builtin_themes_dir()
DEFAULT_THEME = "dark"
_THEME_KEYS = {
    "name", "primary", "secondary", "warning", "error", "success", "accent", "foreground",
    "background", "surface", "panel", "boost", "dark", "luminosity_spread", "text_alpha",
    "variables",
}


class ThemeFileError(ValueError):
    """A theme file is not valid TOML or has unknown keys."""


def theme_from_file(path: Path) -> Theme:
    """Parse one theme file; unknown keys are an error so typos do not pass silently."""
    try:
        raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path}: {exc}") from exc
    unknown = set(raw) - _THEME_KEYS
    if unknown:
        raise ThemeFileError(f"{path}: unknown keys {sorted(unknown)}")
    if "primary" not in raw:
        raise ThemeFileError(f"{path}: 'primary' is required")
    raw.setdefault("name", path.stem)
    return Theme(**raw)


def theme_dirs() -> list[Path]:
    return [BUILTIN_DIR, data_dir() / "themes"]


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every theme found, and one error line per file that could not be loaded."""
    themes: dict[str, Theme] = {}
    errors: list[str] = []
    for directory in theme_dirs():
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            try:
                theme = theme_from_file(path)
            except ThemeFileError as exc:
                errors.append(str(exc))
                continue
            themes[theme.name] = theme
    return list(themes.values()), errors


def save_user_theme(name: str) -> str | None:
    """Remember `/theme NAME` in the user settings file (other keys kept); an error text on
    failure (an unreadable or non-object settings file is left alone)."""
    path = user_settings_path()
    try:
        update_json_file(path, lambda data: data.__setitem__("theme", name))
    except ValueError as exc:
        return str(exc)
    except OSError as exc:
        return f"{path}: {exc}"
    return None
