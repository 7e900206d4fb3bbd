"""Ctrl+R: search the prompt history backwards, as a shell does.

Typing narrows to the newest prompt containing the text (case-insensitive); Ctrl+R again steps
to an older match; Enter puts the match in the prompt to edit or send; Esc leaves the prompt as
it was. Shown in place of the prompt; it posts `Accepted` or `Cancelled`.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static


def find_older(entries: Sequence[str], query: str, before: int) -> int | None:
    """The index of the newest entry older than `before` that contains `query`."""
    wanted = query.casefold()
    for index in range(min(before, len(entries)) - 1, -1, -1):
        if wanted in entries[index].casefold():
            return index
    return None


class HistorySearch(Vertical):
    DEFAULT_CSS = """
    HistorySearch { height: auto; border: round $accent; padding: 0 1; background: $surface; }
    HistorySearch .search-match { max-height: 6; }
    HistorySearch .search-hint { color: $text-muted; text-style: italic; }
    /* :focus too: Textual's own `Input:focus` border (tall, 2 rows) would outrank a plain
       `border: none` and squeeze the one-row input to nothing, hiding what is typed */
    HistorySearch Input, HistorySearch Input:focus {
        border: none; height: 1; padding: 0; background: $surface;
    }
    """

    BINDINGS = [
        Binding("ctrl+r", "older", show=False, priority=True),
        Binding("escape", "cancel", show=False),
    ]

    class Accepted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Cancelled(Message):
        pass

    def __init__(self, entries: Sequence[str]) -> None:
        super().__init__(id="history-search")
        self.entries = list(entries)  # oldest first
        self.index: int | None = None
        self._input = Input(placeholder="search your earlier prompts", id="history-query")
        self._match = Static(classes="search-match", markup=False)
        self._hint = Static("Ctrl+R older match · Enter use it · Esc cancel",
                            classes="search-hint", markup=False)

    def compose(self) -> ComposeResult:
        yield self._input
        yield self._match
        yield self._hint

    def on_mount(self) -> None:
        self._input.focus()
        self._search(len(self.entries))

    @property
    def match(self) -> str | None:
        return self.entries[self.index] if self.index is not None else None

    def _search(self, before: int) -> None:
        found = find_older(self.entries, self._input.value, before)
        if found is not None or before == len(self.entries):
            self.index = found
        self._match.update(self.match if self.match is not None else "(no match)")

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._search(len(self.entries))

    def action_older(self) -> None:
        self._search(self.index if self.index is not None else len(self.entries))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.match is not None:
            self.post_message(self.Accepted(self.match))
        else:
            self.post_message(self.Cancelled())

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())

    def on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+c":
            event.stop()
            self.post_message(self.Cancelled())
