"""/config: list the settings the panel offers and change one, applied to this session at once
and saved where Claude Code saves it (config/config_panel.py says which file).

What the session applies itself: auto-compact, thinking, checkpoints, verbose, the model (the
/model path), the output style (the /output-style path, which saves it too), respectGitignore
(Grep, Glob and the @ search), the editor mode (the /vim path: `EditorModeChanged`, which both
front ends' inputs follow). What the front ends apply from `SettingChanged`: the theme. The default permission mode is saved for the next session, as in Claude Code.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.config.config_panel import (
    BY_KEY,
    SettingSpec,
    coerce,
    row_values,
    scope_path,
    write_setting,
)
from claude_harness.config.paths import data_dir
from claude_harness.protocol import ops
from claude_harness.protocol.events import EditorModeChanged, Notice
from claude_harness.protocol.panels import (
    ChangeSetting,
    ListSettings,
    SettingChanged,
    SettingRow,
    SettingsListed,
)
from claude_harness.session.handlers import models, output_styles
from claude_harness.session.handlers.services import Emits
from claude_harness.themes import builtin_themes_dir
from claude_harness.tools.grep import ignore_files

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.config.output_styles import StyleCatalog
    from claude_harness.session.checkpointing.rewind import SessionCheckpoints


class SettingsServices(Emits, Protocol):
    model: str
    request_settings: RequestSettings
    output_style: str

    @property
    def cwd(self) -> Path: ...
    @property
    def session_config(self) -> Any: ...
    @property
    def styles(self) -> StyleCatalog: ...
    @property
    def checkpoints(self) -> SessionCheckpoints: ...


def _live(services: SettingsServices) -> dict[str, Any]:
    config = services.session_config
    return {"autoCompactEnabled": config.auto_compact, "verbose": config.verbose,
            "alwaysThinkingEnabled": services.request_settings.thinking,
            "fileCheckpointingEnabled": config.file_checkpointing,
            "outputStyle": services.output_style, "model": services.model,
            "respectGitignore": ignore_files.respects_gitignore()}


def _options(services: SettingsServices) -> dict[str, tuple[Any, ...]]:
    from claude_harness.api.models import MODEL_ALIASES  # the model table, on /config only

    folders = (builtin_themes_dir(), data_dir() / "themes")  # the app's theme files
    themes = tuple(sorted({p.stem for folder in folders for p in folder.glob("*.toml")}))
    models_offered = ("default", *MODEL_ALIASES)
    if services.model not in models_offered:
        models_offered = (*models_offered, services.model)
    return {"theme": themes, "outputStyle": tuple(s.name for s in services.styles.styles),
            "model": models_offered}


def list_settings(services: SettingsServices, _op: ListSettings) -> None:
    rows = tuple(SettingRow(spec.key, spec.label, value, options,
                            str(scope_path(spec.scope, services.cwd)), note)
                 for spec, value, options, note in row_values(services.cwd, _live(services),
                                                              _options(services)))
    services.emit(SettingsListed(rows))


def change_setting(services: SettingsServices, op: ChangeSetting) -> Awaitable[None] | None:
    spec = BY_KEY.get(op.key)
    path = str(scope_path(spec.scope, services.cwd)) if spec is not None else ""
    if spec is None:
        _refuse(services, op, path, f"{op.key} isn't a /config setting. Run /config to see "
                                    "what's available.")
        return None
    options = _options(services).get(spec.key, spec.options)
    try:
        value = coerce(replace(spec, options=options), op.value)
    except ValueError as exc:
        _refuse(services, op, path, str(exc))
        return None
    if spec.key == "outputStyle":  # the /output-style path: it saves and says so itself
        output_styles.set_style(services, ops.SetOutputStyle(value))  # type: ignore[arg-type]
        services.emit(SettingChanged(spec.key, services.output_style, path,
                                     f"Output style: {services.output_style}"))
        return None
    try:
        saved = write_setting(spec, value, services.cwd)
    except (OSError, ValueError) as exc:
        _refuse(services, op, path, f"Couldn't save {spec.label}: {exc}")
        return None
    note = _apply(services, spec, value)
    message = f"Set {spec.label} to {_shown(value)} (saved to {saved})" + (
        f"; {note}" if note else "")
    services.emit(SettingChanged(spec.key, value, str(saved), message))
    if spec.key == "model":  # the /model path (its PreModelSwitch hooks may keep the model)
        from claude_harness.api.models import DEFAULT_MODEL  # the model table, on a change

        return models.set_model(services, ops.SetModel(  # type: ignore[arg-type]
            DEFAULT_MODEL if value == "default" else value))
    return None


def _refuse(services: SettingsServices, op: ChangeSetting, path: str, why: str) -> None:
    services.emit(SettingChanged(op.key, op.value, path, why, error=why))
    services.emit(Notice(why, "error"))


def _shown(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _apply(services: SettingsServices, spec: SettingSpec, value: Any) -> str:
    """Make the running session follow the saved value; the words to add, if any."""
    config = services.session_config
    match spec.key:
        case "autoCompactEnabled":
            config.auto_compact = value
        case "verbose":
            config.verbose = value
        case "fileCheckpointingEnabled":
            config.file_checkpointing = value
            services.checkpoints.snapshots = value  # type: ignore[attr-defined]
        case "alwaysThinkingEnabled":
            services.request_settings = replace(services.request_settings, thinking=value)
            services.emit_controls()  # type: ignore[attr-defined]
        case "respectGitignore":
            ignore_files.configure(respect_gitignore=value)
        case "editorMode":
            services.emit(EditorModeChanged(value))  # the inputs switch now, as after /vim
        case "permissions.defaultMode":
            return "applies from the next session"
        case "spinnerTipsEnabled":
            return spec.note
    return ""


HANDLERS: dict[type[Any], Callable[[SettingsServices, Any], Awaitable[None] | None]] = {
    ListSettings: list_settings, ChangeSetting: change_setting}
