"""Extended thinking: dimmed and collapsed by default, expandable with a click or Enter."""

from __future__ import annotations

from textual.widgets import Collapsible, Static


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

    def __init__(self) -> None:
        self.text = ""
        self._body = Static("", classes="thinking-body", markup=False)
        super().__init__(self._body, title="✻ Thinking…", collapsed=True)

    def append_delta(self, delta: str) -> None:
        self.text += delta
        if not self.collapsed:
            self._body.update(self.text)

    def finish(self) -> None:
        self.title = "✻ Thought (click or Enter to show)"
        self._body.update(self.text)

    def _watch_collapsed(self, collapsed: bool) -> None:
        super()._watch_collapsed(collapsed)
        if not collapsed:
            self._body.update(self.text)
