"""/config in the app: the settings Claude Code's panel offers that this harness applies, each
changed with the keyboard and applied at once (the session saves it where Claude Code does and
answers SettingChanged).

Enter or Space flips a switch or steps a choice forward, Left/Right step a choice either way,
Esc closes. The row's file and note are shown under the list.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from claude_harness.frontends.tui.panels.base import Close, Panel, Submit
from claude_harness.protocol.panels import ChangeSetting, SettingChanged, SettingRow


def shown(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class ConfigPanel(Panel):
    BINDINGS = [
        Binding("space", "step(1)", show=False),
        Binding("right", "step(1)", show=False),
        Binding("left", "step(-1)", show=False),
    ]
    numbers_choose = False

    def __init__(self, rows: tuple[SettingRow, ...], submit: Submit, close: Close) -> None:
        super().__init__(submit, close, name="config")
        self.rows = list(rows)

    def title_text(self) -> str:
        return "Settings"

    def row_texts(self) -> list[tuple[str, str]]:
        width = max((len(r.label) for r in self.rows), default=0)
        return [(f"{r.label:<{width}}  {shown(r.value)}", "") for r in self.rows]

    def hint_text(self) -> str:
        row = self.rows[self.selected] if self.rows else None
        where = f"Saved in {row.path}" + (f" · {row.note}" if row.note else "") if row else ""
        return f"{where}\n↑↓ choose · Enter/Space change · ←→ step a choice · Esc close"

    async def chosen(self, index: int) -> None:
        self.action_step(1)

    def action_step(self, step: int) -> None:
        if not self.rows:
            return
        row = self.rows[self.selected]
        if isinstance(row.value, bool):
            value: Any = not row.value
        elif row.options:
            options = list(row.options)
            at = options.index(row.value) if row.value in options else -1
            value = options[(at + step) % len(options)]
        else:
            self.set_status(f"{row.label}: use /config {row.key}=<value>.", error=True)
            return
        self.set_status(f"Saving {row.label}…")
        self.submit(ChangeSetting(row.key, value))  # drawn when the session answers

    def _set(self, row: SettingRow, value: Any) -> None:
        index = self.rows.index(row)
        self.rows[index] = SettingRow(row.key, row.label, value, row.options, row.path,
                                      row.note)
        self.redraw()

    def changed(self, event: SettingChanged) -> None:
        """The session's answer: saved (the value it holds now) or refused (back as it was)."""
        row = next((r for r in self.rows if r.key == event.key), None)
        if row is None:
            return
        if event.error:
            self.set_status(event.message, error=True)
            return
        self._set(row, event.value)
        self.set_status(event.message)

