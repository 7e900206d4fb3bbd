"""What the /config, /permissions and /hooks panels share: a title, a list with a pointer
(Up/Down, a row's number), a hint and a status line, and Esc to step back or close.

A panel draws rows it is given and reports what the person does to its subclass; it never
talks to the session itself (its owner hands it a `submit` for ops and a `close`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

Submit = Callable[[Any], None]
Close = Callable[["Panel"], Awaitable[None]]


class Panel(Vertical, can_focus=True):
    DEFAULT_CSS = """
    Panel {
        height: auto;
        max-height: 80vh;
        border: round $accent;
        padding: 0 1;
        background: $surface;
    }
    Panel .panel-title { text-style: bold; }
    Panel .panel-rows { padding: 0 0 0 1; }
    Panel .panel-hint { color: $text-muted; text-style: italic; }
    Panel .panel-status { color: $success; }
    """

    BINDINGS = [
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "choose", show=False),
        Binding("escape", "back", show=False),
    ]

    window = 12  # rows shown at once; the list scrolls with the pointer
    numbers_choose = True  # a row's number picks it (not in /config: a digit would toggle)

    def __init__(self, submit: Submit, close: Close, *, name: str) -> None:
        super().__init__(classes="settings-panel", name=name)
        self.submit = submit
        self._close = close
        self.selected = 0
        self._title = Static(classes="panel-title", markup=False)
        self._rows = Static(classes="panel-rows")
        self._hint = Static(classes="panel-hint", markup=False)
        self._status = Static(classes="panel-status", markup=False)

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._rows
        yield self._hint
        yield self._status

    def on_mount(self) -> None:
        self._status.display = False
        self.redraw()
        self.focus()

    # ── what a subclass says ────────────────────────────────────────────────────────────────

    def title_text(self) -> str:
        raise NotImplementedError

    def row_texts(self) -> list[tuple[str, str]]:
        """(label, dim detail) per row."""
        raise NotImplementedError

    def hint_text(self) -> str:
        return "↑↓ choose · Enter select · Esc close"

    def empty_text(self) -> str:
        return "(nothing to list)"

    @property
    def plain_rows(self) -> bool:
        """Rows to read, not to choose (a detail view): no pointer, no numbers."""
        return False

    async def chosen(self, index: int) -> None:
        """Enter (or the row's number) on row `index`."""

    async def back(self) -> bool:
        """Esc: step back inside the panel (True), or let it close (False)."""
        return False

    # ── drawing and keys ────────────────────────────────────────────────────────────────────

    def set_status(self, text: str, error: bool = False) -> None:
        self._status.display = bool(text)
        self._status.update(text)
        self._status.styles.color = "red" if error else None

    def redraw(self) -> None:
        rows = self.row_texts()
        self.selected = max(0, min(self.selected, len(rows) - 1))
        self._title.update(self.title_text())
        start = max(0, min(self.selected - self.window // 2, len(rows) - self.window))
        shown = list(enumerate(rows))[start:start + self.window]
        parts: list[Any] = []  # plain text and (text, style): rule text is never markup
        if start:
            parts.append((f"  ↑ {start} more\n", "dim"))
        digits = len(str(len(rows)))
        for index, (label, detail) in shown:
            mine = index == self.selected and not self.plain_rows
            head = "" if self.plain_rows else f"{'❯' if mine else ' '} {index + 1:>{digits}}. "
            parts.append((head + label, "bold" if mine else ""))
            if detail:
                parts.append((f"  {detail}", "dim"))
            parts.append("\n")
        below = len(rows) - start - len(shown)
        if below > 0:
            parts.append((f"  ↓ {below} more\n", "dim"))
        self._rows.update(Content.assemble(*parts).rstrip() if parts else self.empty_text())
        self._hint.update(self.hint_text())

    def action_move(self, step: int) -> None:
        count = len(self.row_texts())
        if count:
            self.selected = (self.selected + step) % count
            self.redraw()

    async def action_choose(self) -> None:
        if self.row_texts():
            await self.chosen(self.selected)

    async def action_back(self) -> None:
        if not await self.back():
            await self.close_panel()

    async def close_panel(self) -> None:
        await self._close(self)

    async def on_key(self, event: events.Key) -> None:
        if not self.numbers_choose:
            return
        if event.character and event.character.isdigit() and event.character != "0":
            number = int(event.character)
            if number <= len(self.row_texts()):
                event.stop()
                self.selected = number - 1
                self.redraw()
                await self.chosen(self.selected)
