"""The line above the input while a turn runs: spinner, elapsed time, queued prompts, hints.

Its timer runs only while the model works; it is hidden and stopped when idle.
"""

from __future__ import annotations

from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from claude_harness.frontends.tui import clock

SPINNER = "✻✳✢·✢✳"


class ActivityLine(Static):
    DEFAULT_CSS = """
    ActivityLine { height: 1; padding: 0 1; color: $primary; display: none; }
    ActivityLine.-active { display: block; }
    """

    def __init__(self) -> None:
        super().__init__(id="activity")
        self.label = "Working"
        self.queued = 0
        self._started = 0.0
        self._timer: Timer | None = None

    def start(self, label: str = "Working") -> None:
        self.label = label
        self._started = clock.now()
        self.add_class("-active")
        if self._timer is None:
            self._timer = self.set_interval(0.2, self._tick)
        self._render_line()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.remove_class("-active")

    @property
    def active(self) -> bool:
        return self._timer is not None

    def relabel(self, label: str) -> None:
        """A new label for the work under way (a rewind's progress), same timer."""
        self.label = label
        if self.active:
            self._render_line()

    def set_queued(self, count: int) -> None:
        self.queued = count
        if self.active:
            self._render_line()

    def _tick(self) -> None:
        self._render_line()

    def _render_line(self) -> None:
        elapsed = int(clock.now() - self._started)
        queued = f" · {self.queued} queued" if self.queued else ""
        glyph = SPINNER[clock.frame(self._started, len(SPINNER), 5.0)]
        self.update(Content.from_markup(
            f"{glyph} {self.label}… [dim]({elapsed}s · esc to interrupt{queued})[/]"))
