"""The line above the input while a turn runs: spinner, elapsed time, queued prompts, hints,
and under it a tip, as Claude Code shows one (`⎿ Tip: ...`): the next of `tips` each turn,
none when `spinnerTipsEnabled` is false (config/spinner_tips.py gives the list).

The tip is a widget of its own (`tip_line`, composed right after this one), drawn once per
turn: the spinner's tick repaints one row only, as it did before there were tips (a two-row
line repainted every 0.2 s doubled the keystroke echo while a command streamed).

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
        self.tips: tuple[str, ...] = ()
        self.tip = ""  # the one shown this turn
        self._turns = 0
        self.tip_line = TipLine()

    def start(self, label: str = "Working") -> None:
        self.label = label
        if not self.active:  # a new piece of work: the next tip
            self.tip = self.tips[self._turns % len(self.tips)] if self.tips else ""
            self._turns += 1
            self.tip_line.show(self.tip)
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
        self.tip_line.show("")

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
        line = Content.from_markup(
            f"{glyph} {self.label}… [dim]({elapsed}s · esc to interrupt{queued})[/]")
        self.update(line)


class TipLine(Static):
    """The turn's tip under the spinner; hidden with no tip."""

    DEFAULT_CSS = """
    TipLine { height: 1; padding: 0 1; color: $primary; text-style: dim; display: none; }
    TipLine.-active { display: block; }
    """

    def show(self, tip: str) -> None:
        self.set_class(bool(tip), "-active")
        if tip:
            self.update(Content.from_markup("  ⎿ Tip: $tip", tip=tip))
