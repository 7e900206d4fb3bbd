"""What /config offers and where each change is saved, as Claude Code 2.1.332 saves it.

Claude Code's /config writes most of its switches to the user settings
(`~/.claude/settings.json`, or `$CLAUDE_CONFIG_DIR/settings.json`): theme, editor mode, verbose,
auto-compact, checkpoints, tips, thinking, model, the default permission mode. A few stay in its
global config file `~/.claude.json` (`respectGitignore` among them), and the output style goes
to the project's `.claude/settings.local.json`. Each row here names its file the same way, so
a value set in one program is read by the other. Reading and writing only: applying a change to
the running session is session/handlers/settings_panel.py's job.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claude_harness.config.paths import (
    local_settings_path,
    project_settings_path,
    user_settings_path,
)
from claude_harness.config.settings_write import update_json_file
from claude_harness.config.trust import claude_code_config

Scope = Literal["user", "global", "local"]
SWITCH = (True, False)
DEFAULT_MODES = ("default", "plan", "acceptEdits", "dontAsk", "auto")
EDITOR_MODES = ("normal", "vim")


@dataclass(frozen=True)
class SettingSpec:
    key: str  # dotted for a nested key: "permissions.defaultMode"
    label: str
    scope: Scope
    default: Any
    options: tuple[Any, ...] = SWITCH  # () : filled in by whoever knows them (models, styles)
    note: str = ""


SPECS: tuple[SettingSpec, ...] = (
    SettingSpec("autoCompactEnabled", "Auto-compact", "user", True),
    SettingSpec("spinnerTipsEnabled", "Show tips", "user", True,
                note="the app's spinner shows them (or not) from the next session"),
    SettingSpec("alwaysThinkingEnabled", "Thinking mode", "user", True),
    SettingSpec("fileCheckpointingEnabled", "Rewind code (checkpoints)", "user", True),
    SettingSpec("verbose", "Verbose output", "user", False),
    SettingSpec("theme", "Theme", "user", "dark", ()),
    SettingSpec("outputStyle", "Output style", "local", "default", ()),
    SettingSpec("editorMode", "Editor mode", "user", "normal", EDITOR_MODES),
    SettingSpec("model", "Model", "user", "default", ()),
    SettingSpec("permissions.defaultMode", "Default permission mode", "user", "default",
                DEFAULT_MODES, note="applies from the next session"),
    SettingSpec("respectGitignore", "Respect .gitignore in file picker", "global", True),
)
BY_KEY = {spec.key: spec for spec in SPECS}


def scope_path(scope: Scope, cwd: Path) -> Path:
    if scope == "global":
        return claude_code_config()
    if scope == "local":
        return local_settings_path(cwd)
    return user_settings_path()


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _get(data: dict[str, Any], key: str) -> Any:
    for part in key.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)  # type: ignore[assignment]
    return data


def saved_value(spec: SettingSpec, cwd: Path) -> Any:
    """The value in the row's own file, else (user-scope keys) the legacy global config where
    Claude Code kept them before it moved them to settings.json; None when unset."""
    value = _get(_read(scope_path(spec.scope, cwd)), spec.key)
    if value is None and spec.scope == "user":
        value = _get(_read(claude_code_config()), spec.key)
    return value


def respect_gitignore(loaded: Any) -> bool:
    """`respectGitignore`: a settings file's value, else the one Claude Code's /config (and
    ours) saved in ~/.claude.json, else true."""
    value = loaded.value("respectGitignore")
    if value is None:
        value = _read(claude_code_config()).get("respectGitignore")
    return value is not False


def coerce(spec: SettingSpec, raw: Any) -> Any:
    """`raw` (a value, or the text of `/config key=value`) as one of the row's options; raises
    ValueError with the words to show when it is none of them."""
    if spec.options == SWITCH:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "on", "yes", "1"):
            return True
        if text in ("false", "off", "no", "0"):
            return False
        raise ValueError(f"{spec.label} takes true or false, not {raw!r}.")
    text = str(raw).strip()
    if not spec.options:
        if not text:
            raise ValueError(f"{spec.label} needs a value.")
        return text
    match = next((o for o in spec.options if str(o).lower() == text.lower()), None)
    if match is None:
        raise ValueError(f"{spec.label} takes one of: {', '.join(map(str, spec.options))}.")
    return match


def _stored(spec: SettingSpec, value: Any) -> Any:
    """What the file gets: Claude Code removes `alwaysThinkingEnabled` when thinking is on
    (the default) and writes false when it is off; "default" model means no `model` key."""
    if spec.key == "alwaysThinkingEnabled":
        return None if value else False
    if spec.key == "model" and value == "default":
        return None
    return value


def write_setting(spec: SettingSpec, value: Any, cwd: Path) -> Path:
    """Save `value` under the row's key in its file, every other key kept; raises OSError or
    ValueError (the file is left as it was) when it cannot."""
    path = scope_path(spec.scope, cwd)
    stored = _stored(spec, value)
    *parents, last = spec.key.split(".")

    def change(data: dict[str, Any]) -> None:
        for part in parents:
            child = data.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"{path}: {part!r} is not an object; not changing it")
            data = child
        if stored is None:
            data.pop(last, None)
        else:
            data[last] = stored

    update_json_file(path, change)
    return path


def overridden_by(spec: SettingSpec, cwd: Path) -> str:
    """Claude Code's notice for a user-scope row that a project file also sets: "<file>
    overrides what you save here" (the change still applies to this session)."""
    if spec.scope != "user":
        return ""
    for path in (local_settings_path(cwd), project_settings_path(cwd)):
        if _get(_read(path), spec.key) is not None:
            return f"{path} overrides what you save here in later sessions"
    return ""


def row_values(cwd: Path, live: dict[str, Any],
               options: dict[str, tuple[Any, ...]]) -> list[tuple[SettingSpec, Any, tuple[Any, ...], str]]:
    """(spec, value, options, note) per row: the running session's value where it has one
    (`live`), else the saved one, else the default."""
    rows = []
    for spec in SPECS:
        value = live.get(spec.key)
        if value is None:
            value = saved_value(spec, cwd)
        note = "; ".join(n for n in (spec.note, overridden_by(spec, cwd)) if n)
        rows.append((spec, spec.default if value is None else value,
                     options.get(spec.key, spec.options), note))
    return rows


Applier = Callable[[Any], str | None]
"""Applies a saved change to the running session; returns a note to add, or None."""
