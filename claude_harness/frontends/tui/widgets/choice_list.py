"""A short list to choose from, shown in place of the prompt: /model, /output-style, /tasks and
the `#` memory question use it.

Up/Down (or the row's number) move, Enter chooses, Esc closes; `keys` adds actions on the
selected row (/tasks: `k` kills it). The widget only posts `Chosen(key, action)` or `Cancelled`;
what a choice means is its owner's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.message import Message
from textual.widgets import Static


@dataclass(frozen=True)
class Row:
    key: str  # what Chosen reports
    label: str
    detail: str = ""  # dim text after the label
    current: bool = False  # marked with a check


class ChoiceList(Vertical, can_focus=True):
    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
        max-height: 70vh;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    ChoiceList .choice-title { text-style: bold; }
    ChoiceList .choice-rows { padding: 0 0 0 1; }
    ChoiceList .choice-hint { color: $text-muted; text-style: italic; }
    """

    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "choose", show=False),
        Binding("escape", "cancel", show=False),
    ]

    class Chosen(Message):
        def __init__(self, owner: ChoiceList, key: str, action: str = "choose") -> None:
            super().__init__()
            self.owner = owner
            self.key = key
            self.action = action

    class Cancelled(Message):
        def __init__(self, owner: ChoiceList) -> None:
            super().__init__()
            self.owner = owner

    def __init__(self, title: str, rows: Sequence[Row], *, hint: str = "",
                 keys: dict[str, str] | None = None, name: str = "") -> None:
        """`keys`: extra key -> action name reported with the selected row ("k" -> "kill")."""
        super().__init__(classes="choice-list", name=name or None)
        self.title = title
        self.rows = list(rows)
        self.keys = keys or {}
        self.selected = next((i for i, r in enumerate(self.rows) if r.current), 0)
        self._title = Static(classes="choice-title", markup=False)
        self._rows = Static(classes="choice-rows")
        extra = " · ".join(f"{k} {a}" for k, a in self.keys.items())
        self._hint = Static(hint or ("↑↓ or number choose · Enter select · Esc close"
                                     + (f" · {extra}" if extra else "")),
                            classes="choice-hint", markup=False)

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._rows
        yield self._hint

    def on_mount(self) -> None:
        self._draw()
        self.focus()

    def _draw(self) -> None:
        self._title.update(self.title)
        if not self.rows:
            self._rows.update("(nothing to list)")
            return
        lines = []
        for index, row in enumerate(self.rows):
            pointer = "❯" if index == self.selected else " "
            check = " ✔" if row.current else ""
            text = f"{pointer} {index + 1}. {escape(row.label)}{check}"
            if row.detail:
                text += f"  [dim]{escape(row.detail)}[/]"
            lines.append(f"[b]{text}[/]" if index == self.selected else text)
        self._rows.update(Content.from_markup("\n".join(lines)))

    def action_move(self, step: int) -> None:
        if self.rows:
            self.selected = (self.selected + step) % len(self.rows)
            self._draw()

    def action_choose(self) -> None:
        if self.rows:
            self.post_message(self.Chosen(self, self.rows[self.selected].key))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled(self))

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            number = int(event.character)
            if 1 <= number <= len(self.rows):
                event.stop()
                self.selected = number - 1
                self._draw()
                self.action_choose()
        elif event.key in self.keys and self.rows:
            event.stop()
            self.post_message(self.Chosen(self, self.rows[self.selected].key,
                                          self.keys[event.key]))
