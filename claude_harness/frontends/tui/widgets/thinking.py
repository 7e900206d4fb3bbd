"""Extended thinking: a collapsed, dimmed block whose title counts the seconds while the model
thinks ("✻ Thinking… 3s") and then says how long it took ("✻ Thought for 4s"). Ctrl+O (or a
click, or Enter) shows the text. A redacted block is one line: the API keeps its text.

The timer runs only while the block streams, so a finished conversation has no timers.
"""

from __future__ import annotations

from textual.timer import Timer
from textual.widgets import Collapsible, Static

from claude_harness.frontends.shared.event_text import (
    REDACTED_THINKING,
    thinking_label,
    thought_label,
)
from claude_harness.frontends.tui import clock
from claude_harness.text.terminal_safety import strip_unsafe

EXPAND_HINT = " (ctrl+o to expand)"


class ThinkingView(Collapsible):
    DEFAULT_CSS = """
    ThinkingView {
        margin: 1 0 0 0;
        padding: 0;
        border: none;
        background: transparent;
        color: $text-muted;
        text-style: italic;
    }
    ThinkingView > Contents { padding: 0 0 0 3; }
    ThinkingView CollapsibleTitle { color: $text-muted; padding: 0 1; }
    ThinkingView .thinking-body { color: $text-muted; }
    """

    def __init__(self, text: str = "", *, streaming: bool = True) -> None:
        """`streaming`: the model is thinking now (the title counts seconds); otherwise the
        block is finished already (from history, or shown only when it ended)."""
        self.text = strip_unsafe(text)
        self.started = clock.now()
        self.seconds: float | None = None
        self.streaming = streaming
        self._timer: Timer | None = None
        self._body = Static(self.text, classes="thinking-body", markup=False)
        hint = EXPAND_HINT if self.text.strip() else ""
        title = thinking_label(0) if streaming else thought_label(None) + hint
        super().__init__(self._body, title=title, collapsed=True)

    @classmethod
    def from_history(cls, text: str) -> ThinkingView:
        """A stored block (resume): finished and collapsed, its duration unknown."""
        return cls(text, streaming=False)

    def on_mount(self) -> None:
        if self.streaming:
            self._timer = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        self.title = thinking_label(clock.now() - self.started)

    def _hint(self) -> str:
        """"(ctrl+o to expand)" while there is hidden text to show."""
        return EXPAND_HINT if self.text.strip() and self.collapsed else ""

    def append_delta(self, delta: str) -> None:
        self.text += strip_unsafe(delta)
        if not self.collapsed:
            self._body.update(self.text)

    def finish(self, text: str | None = None) -> None:
        """The block ended: stop the timer and say how long it took. `text` is the whole
        block as ThinkingDone carries it (it replaces the streamed fragments)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.streaming:
            self.seconds = clock.now() - self.started
            self.streaming = False
        if text:
            self.text = strip_unsafe(text)
        self.title = thought_label(self.seconds) + self._hint()
        self._body.update(self.text)

    def _watch_collapsed(self, collapsed: bool) -> None:
        super()._watch_collapsed(collapsed)
        if not self.streaming:
            self.title = thought_label(self.seconds) + self._hint()
        if not collapsed:
            self._body.update(self.text)


class RedactedThinkingView(Static):
    """A redacted_thinking block: one dim line."""

    DEFAULT_CSS = """
    RedactedThinkingView { margin: 1 0 0 0; padding: 0 1; color: $text-muted; text-style: italic; }
    """

    def __init__(self) -> None:
        super().__init__(REDACTED_THINKING, markup=False)
