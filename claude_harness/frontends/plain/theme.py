"""Map a theme file (claude_harness/themes/<name>.toml, the same files the Textual app loads) to Rich styles
and a prompt-toolkit style, so `--theme` colours the plain REPL where the colours map.

Only a handful of roles exist in line mode (accent, tool header, error, warning, success, dim);
everything else in a theme file is ignored. NO_COLOR is honoured by Rich and prompt-toolkit
themselves, so nothing here needs to check it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from rich.theme import Theme

from claude_harness.session.bootstrap import data_dir
from claude_harness.themes import builtin_themes_dir

DEFAULT_THEME = "dark"
DEFAULT_COLOURS = {
    "primary": "#d97757",
    "secondary": "#6a9fb5",
    "accent": "#b294bb",
    "success": "#8cbf6f",
    "warning": "#e5c07b",
    "error": "#e06c75",
}


@dataclass(frozen=True)
class PlainTheme:
    name: str
    colours: dict[str, str]

    def rich_theme(self) -> Theme:
        c = self.colours
        return Theme({
            "ch.accent": f"bold {c['primary']}",
            "ch.tool": f"bold {c['secondary']}",
            "ch.user": c["accent"],
            "ch.dim": "dim",
            "ch.error": f"bold {c['error']}",
            "ch.warning": c["warning"],
            "ch.success": c["success"],
            "ch.diff.add": c["success"],
            "ch.diff.del": c["error"],
            "ch.diff.hunk": c["secondary"],
        })

    def prompt_style(self) -> dict[str, str]:
        """Style rules for prompt-toolkit (class name -> style string)."""
        c = self.colours
        return {
            "prompt": f"bold {c['primary']}",
            "bottom-toolbar": "noreverse",
            "toolbar.mode": f"bold {c['warning']}",
            "toolbar.info": "",
            "choice.selected": f"bold {c['primary']}",
            "choice.title": f"bold {c['secondary']}",
            "choice.reason": c["warning"],
        }


def theme_dirs() -> list[Path]:
    """User themes first (data dir), then the ones shipped with the project."""
    return [data_dir() / "themes", builtin_themes_dir()]


def load_theme(name: str | None) -> tuple[PlainTheme, str | None]:
    """The named theme, or the default with a warning saying why the name was not used."""
    wanted = name or DEFAULT_THEME
    for folder in theme_dirs():
        path = folder / f"{wanted}.toml"
        if not path.is_file():
            continue
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            return PlainTheme(DEFAULT_THEME, dict(DEFAULT_COLOURS)), f"Theme {wanted!r}: {exc}"
        colours = dict(DEFAULT_COLOURS)
        colours.update({k: v for k, v in raw.items() if k in DEFAULT_COLOURS and _is_colour(v)})
        return PlainTheme(wanted, colours), None
    warning = None if name is None else f"Unknown theme {name!r}; using {DEFAULT_THEME}."
    return PlainTheme(DEFAULT_THEME, dict(DEFAULT_COLOURS)), warning


def _is_colour(value: object) -> bool:
    return isinstance(value, str) and value.startswith("#") and len(value) in (4, 7)
