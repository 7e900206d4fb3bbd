"""/output-style: list the styles, switch to one (saved in .claude/settings.local.json; the
model hears of the change with the next prompt)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.config.local_rules import local_settings_path
from claude_harness.config.settings_write import update_json_file
from claude_harness.protocol import ops
from claude_harness.protocol.events import (
    Notice,
    OutputStyleChanged,
    OutputStyleInfo,
    OutputStylesListed,
)
from claude_harness.session.handlers.services import AddsNotes, Emits

if TYPE_CHECKING:
    from claude_harness.config.output_styles import OutputStyle, StyleCatalog


class StyleServices(Emits, AddsNotes, Protocol):
    output_style: str

    @property
    def cwd(self) -> Path: ...
    @property
    def styles(self) -> StyleCatalog: ...
    def reload_styles(self) -> StyleCatalog: ...


def list_styles(services: StyleServices, _op: ops.ListOutputStyles) -> None:
    rows = tuple(OutputStyleInfo(s.name, s.description, s.source)
                 for s in services.styles.styles)
    services.emit(OutputStylesListed(rows, services.output_style))


def set_style(services: StyleServices, op: ops.SetOutputStyle) -> None:
    styles = services.reload_styles()  # a style file may have been added since
    style = styles.find(op.name)
    if style is None:
        names = ", ".join(s.name for s in styles.styles)
        services.emit(Notice(f"No output style {op.name!r}. Available: {names}.", "error"))
        return
    try:
        _save_style(services.cwd, style)
    except (OSError, ValueError) as exc:
        services.emit(Notice(f"Could not save the output style: {exc}", "error"))
        return
    if style.name.casefold() != services.output_style.casefold():
        from claude_harness.config.output_styles import style_change_message  # a change

        services.output_style = style.name
        services.add_note(style_change_message(style))
    services.emit(OutputStyleChanged(style.name))
    services.emit(Notice(f"Output style set to {style.name} (saved to "
                         ".claude/settings.local.json)."))


def _save_style(cwd: Path, style: OutputStyle) -> None:
    def change(data: dict[str, Any]) -> None:
        data["outputStyle"] = style.name

    update_json_file(local_settings_path(cwd), change)


HANDLERS: dict[type[ops.Op], Callable[[StyleServices, Any], None]] = {
    ops.ListOutputStyles: list_styles, ops.SetOutputStyle: set_style}
